"""The fair Doublets bot's win rate over seeds 1..N (it plays from views only).

    python bench/doublets_fair.py [--games 1000] [--jobs 2] [--level normal]

Prints games won with the 95 % Wilson interval and the mean seconds per game.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from cardtable import games
from cardtable.bots import make_bot
from cardtable.solvers.cli import wilson


def play(args: tuple[int, str]) -> tuple[int, bool, int, float]:
    """One game: (seed, won, score, seconds)."""
    seed, spec = args
    start = time.perf_counter()
    state = games.get("doublets").deal(seed)
    bot = make_bot(spec, "doublets", seed)
    while not state.over:
        legal = state.legal(0)
        state.act(0, bot.choose(state.view(0), legal))
    return seed, state.won, len(state.foundation), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="play seeds 1..N")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--level", default="normal", help="easy, normal or hard")
    args = parser.parse_args()
    tasks = [(s, f"fair:{args.level}") for s in range(args.first, args.first + args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, tasks, chunksize=2))
    else:
        results = [play(t) for t in tasks]
    won = sum(r[1] for r in results)
    low, high = wilson(won, len(results))
    mean_s = sum(r[3] for r in results) / len(results)
    print(f"fair:{args.level} over seeds {tasks[0][0]}..{tasks[-1][0]}: won {won} of "
          f"{len(results)} = {100 * won / len(results):.2f} % "
          f"(95 % CI {100 * low:.2f} - {100 * high:.2f} %); mean {1000 * mean_s:.0f} ms a game")
    lost = [r[0] for r in results if not r[1]]
    print(f"lost: {lost}")


if __name__ == "__main__":
    main()
