"""The plain engine path per action: ``view``, ``legal`` and ``act``, timed apart.

    python bench/plain_path.py [--games 200]

Games of random bots are recorded first, then played again action by action: before each
action the acting seat's ``view`` and ``legal`` are asked, then the action is applied. Printed
per game: the mean CPU microseconds of each of the three and their sum (the path servers,
external bots and searches all pay).
"""

from __future__ import annotations

import argparse
import time

from cardtable import games
from cardtable.bots import make_bot
from cardtable.sim import play_one

CASES = [("slide", 4), ("doublets", 1), ("the-game", 3)]


def measure(name: str, players: int, count: int) -> tuple[float, float, float, int]:
    rules = games.get(name)
    recorded = []
    for seed in range(count):
        state = rules.deal(seed, players)
        play_one(state, [make_bot("random", name, seed * 16 + s) for s in range(players)])
        recorded.append((seed, list(state.actions)))
    view = legal = act = 0
    n = 0
    clock = time.process_time_ns
    for seed, actions in recorded:
        state = rules.deal(seed, players)
        for seat, action in actions:
            t0 = clock()
            state.view(seat)
            t1 = clock()
            state.legal(seat)
            t2 = clock()
            state.act(seat, action)
            t3 = clock()
            view, legal, act, n = view + t1 - t0, legal + t2 - t1, act + t3 - t2, n + 1
    return view / n / 1000, legal / n / 1000, act / n / 1000, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(
        f"{'game':<10} {'seats':>5} {'view us':>8} {'legal us':>9} {'act us':>7} "
        f"{'sum us':>7} {'actions':>8}"
    )
    for name, players in CASES:
        v, lg, a, n = measure(name, players, args.games)
        print(f"{name:<10} {players:>5} {v:>8.1f} {lg:>9.1f} {a:>7.1f} {v + lg + a:>7.1f} {n:>8}")


if __name__ == "__main__":
    main()
