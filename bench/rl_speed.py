"""Environment steps per second: the AEC environment of every game played with random
masked actions, seat by seat, as an agent loop sees it (observe, mask, step).

    python bench/rl_speed.py [--games 100] [--seed 1]

Printed per table: games, agent steps, steps per second (wall clock of this one process)
and the share of the time spent encoding observations (``Encoding.observe``). One process,
one core: run it under ``nice`` on a shared machine and read the figures as a lower bound.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

from cardtable import games
from cardtable.rl import make_env


def run(game: str, players: int, count: int, seed: int) -> tuple[int, float, float]:
    env = make_env(game, players=players)
    rng = random.Random(seed)
    encode = env.encoding.observe
    spent = [0.0]

    def timed(view):  # the encoding's share of the loop
        t = time.perf_counter()
        out = encode(view)
        spent[0] += time.perf_counter() - t
        return out

    env.encoding.observe = timed  # type: ignore[method-assign]
    steps = 0
    started = time.perf_counter()
    for k in range(count):
        env.reset(seed=seed + k)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - started, spent[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'table':<14} {'games':>6} {'steps':>8} {'steps/s':>9} {'encoding':>9}")
    for name in games.names():
        rules = games.get(name)
        if rules.encoding is None:
            continue
        for players in sorted({rules.min_players, rules.max_players}):
            steps, seconds, encoding = run(name, players, args.games, args.seed)
            print(
                f"{name + ' ' + str(players) + 'p':<14} {args.games:>6} {steps:>8} "
                f"{steps / seconds:>9.0f} {100 * encoding / seconds:>8.0f} %"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
