"""Train a small maskable-policy agent on a cardtable environment, on the CPU, for a few
minutes (docs/rl.md). Not run in CI.

    pip install -e '.[rl]' sb3-contrib     # brings stable-baselines3 and PyTorch
    python3 examples/rl_train.py --game doublets --minutes 5 --out doublets-ppo
    python3 examples/rl_train.py --game slide --players 2 --opponents greedy \
        --minutes 5 --out slide-ppo

It learns one seat through the Gymnasium environment (``cardtable.rl.make_gym_env``: the other
seats are built-in bots) with sb3-contrib's MaskablePPO, which reads the legal actions from
the environment's ``action_masks()``. Training deals come from ``--train-seed`` on (each reset
draws the next deal from a generator seeded with it); the evaluation at the end plays the
deals ``--eval-seed`` .. ``--eval-seed + --eval-games - 1``, the numbers ``cardtable`` deals,
so the same deals can be played by the built-in bots through ``cardtable tournament`` and
``examples/rl_bot.py`` (its docstring shows the command).

It writes ``OUT.zip`` (the whole model, for ``MaskablePPO.load``: more training, or
predictions in Python) and ``OUT.npz``, the policy's layers as plain arrays: the bot program
plays from those with numpy alone, so it starts in well under a second instead of loading
PyTorch for every game.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from torch import nn

from cardtable.rl import CardtableGym, make_gym_env


class StopAfter(BaseCallback):
    """Ends the training once ``seconds`` have passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def evaluate(model: MaskablePPO, env: CardtableGym, first: int, count: int) -> list[float]:
    """The learner's final reward on deals ``first`` .. ``first + count - 1``."""
    rewards = []
    for seed in range(first, first + count):
        obs, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, over, cut, _ = env.step(int(action))
            done = over or cut
        rewards.append(float(reward))
    return rewards


def export_policy(model: MaskablePPO, path: str) -> None:
    """The policy's action logits as plain arrays: ``W0, b0, W1, b1, ...`` (hidden layers,
    each followed by ``activation``), then the action layer ``Wa, ba``."""
    arrays: dict[str, np.ndarray] = {}
    activations = set()
    hidden = 0
    for layer in model.policy.mlp_extractor.policy_net:
        if isinstance(layer, nn.Linear):
            arrays[f"W{hidden}"] = layer.weight.detach().numpy()
            arrays[f"b{hidden}"] = layer.bias.detach().numpy()
            hidden += 1
        else:
            activations.add(type(layer).__name__.lower())
    if len(activations) > 1 or not activations <= {"tanh", "relu"}:
        raise ValueError(f"only one activation, tanh or relu, exports: {activations}")
    arrays["Wa"] = model.policy.action_net.weight.detach().numpy()
    arrays["ba"] = model.policy.action_net.bias.detach().numpy()
    np.savez(
        path,
        activation=np.array(activations.pop() if activations else "tanh"),
        hidden=np.array(hidden),
        **arrays,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="doublets")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument(
        "--opponents", default="", help="bots for the other seats, comma-separated (one for all)"
    )
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--out", default="cardtable-ppo", help="OUT.zip and OUT.npz")
    parser.add_argument("--train-seed", type=int, default=100001)
    parser.add_argument("--eval-seed", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    specs = [b for b in args.opponents.split(",") if b]
    players = args.players or 1 + len(specs)
    opponents = (specs * (players - 1))[: players - 1] if len(specs) == 1 else specs
    env = make_gym_env(args.game, players=players, opponents=opponents or None)
    env.reset(seed=args.train_seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=1024,
        batch_size=256,
        learning_rate=3e-4,
        gamma=1.0,
        seed=args.train_seed,
        verbose=0,
    )
    started = time.monotonic()
    model.learn(total_timesteps=10**9, callback=StopAfter(60 * args.minutes))
    trained = time.monotonic() - started
    model.save(f"{args.out}.zip")
    export_policy(model, f"{args.out}.npz")
    print(
        f"trained {model.num_timesteps} steps in {trained:.0f} s; "
        f"saved {args.out}.zip and {args.out}.npz"
    )

    rewards = evaluate(
        model,
        make_gym_env(args.game, players=players, opponents=opponents or None),
        args.eval_seed,
        args.eval_games,
    )
    mean = float(np.mean(rewards))
    half = 1.96 * float(np.std(rewards, ddof=1)) / math.sqrt(len(rewards))
    print(
        f"mean final reward over deals {args.eval_seed}..{args.eval_seed + len(rewards) - 1}:"
        f" {mean:.3f} ± {half:.3f} (95 %)"
    )


if __name__ == "__main__":
    main()
