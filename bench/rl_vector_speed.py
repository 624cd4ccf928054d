"""Vector environment steps per CPU second against the single environment's, in one run.

    python bench/rl_vector_speed.py [--game the-game] [--players 1] [--seconds 3] [--seed 1]

Both play random legal actions (from the mask in ``infos``) through many episodes, autoreset
included. Only the environments' ``step`` calls are timed (``time.process_time``, this
process's CPU), not the choice of the actions: the single env (``make_gym_env``) one game a
step, the vector env (``make_vector_env``) at N = 1, 64 and 1024, N env-steps a call. Printed:
env-steps per CPU second and the ratio to the single env's. One process, one core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardtable.rl import make_gym_env, make_vector_env

SIZES = (1, 64, 1024)


def single(game: str, players: int, seconds: float, seed: int) -> float:
    env = make_gym_env(game, players=players)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        started = time.process_time()
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
        spent += time.process_time() - started
        steps += 1
    return steps / spent


def vector(game: str, players: int, n: int, seconds: float, seed: int) -> float:
    env = make_vector_env(game, n, players=players)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        mask = info["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)  # a random legal one
        started = time.process_time()
        _, _, _, _, info = env.step(actions)
        spent += time.process_time() - started
        steps += n
    return steps / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="the-game")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    base = single(args.game, args.players, args.seconds, args.seed)
    print(f"{args.game}, {args.players} player(s), {args.seconds:g} CPU s per figure")
    print(f"{'environment':<16} {'env-steps/CPU s':>16} {'ratio':>7}")
    print(f"{'single (gym)':<16} {base:>16,.0f} {1:>7.2f}")
    for n in SIZES:
        rate = vector(args.game, args.players, n, args.seconds, args.seed)
        print(f"{f'vector N={n}':<16} {rate:>16,.0f} {rate / base:>7.2f}")


if __name__ == "__main__":
    main()
