"""Full games per second on one core, for every game, with random and greedy bots.

    python bench/games_per_second.py [--seconds 3]

Two paths are measured:
- fast:  ``state.playout(policies, rng)``, the fastest way the library plays whole games;
- plain: bots choosing from ``view(seat)`` and ``legal(seat)``, applied with ``act``.
Each figure is the number of games started and finished (deal included) per second of this
process's CPU time (``time.process_time``), over at least ``--seconds`` CPU seconds: the speed
of one core, which stays true when other work shares the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from cardtable import games
from cardtable.bots import make_bot
from cardtable.sim import play_one

CASES = [
    ("slide", 4, "random", 3000),
    ("slide", 4, "greedy", None),
    ("doublets", 1, "random", None),
    ("doublets", 1, "greedy", 15000),
    ("the-game", 3, "random", None),
    ("the-game", 3, "greedy", 2500),
    ("the-game", 5, "greedy", 2500),
]


def rate(run_one, seconds: float) -> float:
    n = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(20):
            run_one(n)
            n += 1
    return n / elapsed


def fast(name: str, players: int, policy: str):
    rules = games.get(name)
    policies = [policy] * players

    def one(seed: int) -> None:
        rules.deal(seed, players).playout(policies, random.Random(seed))

    return one


def plain(name: str, players: int, policy: str):
    rules = games.get(name)

    def one(seed: int) -> None:
        state = rules.deal(seed, players)
        play_one(state, [make_bot(policy, name, seed * 16 + s) for s in range(players)])

    return one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, games per CPU second "
        f"of one core, {args.seconds:g} s a figure"
    )
    print(
        f"{'game':<10} {'seats':>5} {'bots':<7} {'fast games/s':>13} {'target':>7} "
        f"{'plain games/s':>14}"
    )
    for name, players, policy, target in CASES:
        f = rate(fast(name, players, policy), args.seconds)
        p = rate(plain(name, players, policy), args.seconds)
        mark = "" if target is None else f"{target:>6}{'+' if f >= target else '!'}"
        print(f"{name:<10} {players:>5} {policy:<7} {f:>13,.0f} {mark:>7} {p:>14,.0f}")


if __name__ == "__main__":
    main()
