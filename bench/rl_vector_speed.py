"""Vector environment steps per CPU second beside the single environment's (#29).

    python bench/rl_vector_speed.py [--seconds 2] [--seed 1] [--sizes 1,64,1024]

For every game that offers a vector environment (``Game.vector_env``), in one process: the
single Gymnasium environment (``CardtableGym``) played with random masked actions (its
``info["action_mask"]``, reset when an episode ends), then the vector environment at each
size N, random masked actions drawn for all N games at once from ``infos["action_mask"]``.
A vector step counts N environment steps (the autoreset steps among them, about 1 in 100).
Only the environments' own calls are timed (``step``, and the single environment's
``reset``), not the drawing of the random actions (for 1024 games of The Game, 409 numbers
each a step, that would be a third of the time); each row runs until they have spent
``--seconds`` of CPU time. The ratio is the vector environment's steps per CPU second over
the single one's. One process, one core: read the figures as a lower bound on
a shared machine.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from cardtable import games
from cardtable.rl import make_gym_env, make_vector_env


def single(game: str, seconds: float, seed: int) -> tuple[int, float]:
    """Steps and CPU seconds of the single environment."""
    env = make_gym_env(game)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        started = time.process_time()
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            _, info = env.reset()
        spent += time.process_time() - started
        steps += 1
    return steps, spent


def vector(game: str, n: int, seconds: float, seed: int) -> tuple[int, float]:
    """Environment steps (N per call) and CPU seconds of the vector environment of N games."""
    env = make_vector_env(game, n)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    calls, spent = 0, 0.0
    while spent < seconds:
        mask = info["action_mask"]
        # a uniform legal action per game (0, ignored, for a game being reset)
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        started = time.process_time()
        _, _, _, _, info = env.step(actions)
        spent += time.process_time() - started
        calls += 1
    return calls * n, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="1,64,1024", help="vector sizes N, comma-separated")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'table':<22} {'steps':>10} {'per CPU s':>11} {'ratio':>7}")
    for name in games.names():
        if games.get(name).vector_env is None:
            continue
        steps, cpu = single(name, args.seconds, args.seed)
        base = steps / cpu
        print(f"{name + ' single':<22} {steps:>10} {base:>11.0f} {1:>7.1f}")
        for n in sizes:
            steps, cpu = vector(name, n, args.seconds, args.seed)
            rate = steps / cpu
            print(f"{name + f' vector N={n}':<22} {steps:>10} {rate:>11.0f} {rate / base:>7.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
