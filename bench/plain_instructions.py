"""Whole plain games for an instruction counter: run under ``valgrind --tool=callgrind``.

    python bench/plain_instructions.py GAME SEATS BOTS [--games 50] [--setup-only]

Plays ``--games`` plain games (``games_per_second.plain``: the deal, a bot per seat, the bot
loop) of seeds 0 up, after one game of another seed that loads every module the games use.
``--setup-only`` plays that first game alone, so a run less its ``--setup-only`` run, over
the games, is the instructions of one plain game. Instructions do not depend on the
machine's load, as CPU seconds do (docs/performance.md, "The plain path (#29)"):

    for only in "" --setup-only; do
      valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/plain_instructions.py slide 4 random $only 2>&1 | grep Collected
    done

To compare commits, run it with ``PYTHONPATH`` on each one's ``src``: it uses only
``games_per_second.plain``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import games_per_second as gps  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("seats", type=int)
    parser.add_argument("bots")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--setup-only", action="store_true")
    args = parser.parse_args()
    one = gps.plain(args.game, args.seats, args.bots)
    one(10**6)  # every module loaded, every table built, outside the count
    if not args.setup_only:
        for seed in range(args.games):
            one(seed)


if __name__ == "__main__":
    main()
