"""What a program costs a simulation: a process per game (protocol 1) or one per seat
(protocol 2's newgame), beside the same bot built in.

    python bench/external_bots.py [--game the-game] [--players 2] [--bot expert]
                                  [--games 1000] [--one-game-games 100]

Each row plays seeds 1..N through ``cardtable.sim`` in this process (``--jobs 1``), every seat
the same bot: built in, as ``cardtable bot run BOT`` keeping one process per seat, and as
``cardtable bot run --one-game BOT`` started for every game. Printed: games, wall seconds,
games a second, programs started, and whether the results equal the built-in bot's on the
same seeds (they must: the program gets the bot's seed in its hello).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from cardtable.bots import external
from cardtable.sim import make_tasks, run_tasks


def run(game: str, players: int, spec: str, count: int) -> tuple[float, list, int]:
    tasks = make_tasks(game, players, [spec], count, seed=1, fast=False, timeout=30.0, bot_key=12)
    started = external.POOL.started
    t0 = time.perf_counter()
    outcomes = list(run_tasks(tasks))
    wall = time.perf_counter() - t0
    external.POOL.close()
    errors = [o.error for o in outcomes if o.error]
    if errors:
        raise SystemExit(f"{spec}: {errors[0]}")
    return wall, [(o.scores, o.moves) for o in outcomes], external.POOL.started - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="the-game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--one-game-games", type=int, default=100)
    args = ap.parse_args()
    program = shlex.join([sys.executable, "-m", "cardtable", "bot", "run"])
    rows = [
        ("built in", args.bot, args.games),
        ("program, newgame", f"cmd:{program} {args.bot}", args.games),
        ("program, one game each", f"cmd:{program} --one-game {args.bot}", args.one_game_games),
    ]
    print(f"{args.game}, {args.players} players, {args.bot} in every seat, seeds 1..N")
    print(f"{'how':24} {'games':>6} {'wall s':>8} {'games/s':>8} {'started':>8}  same as built in")
    reference: list = []
    for how, spec, count in rows:
        wall, results, started = run(args.game, args.players, spec, count)
        if not reference:
            reference = results
        same = results == reference[: len(results)]
        print(
            f"{how:24} {count:6} {wall:8.1f} {count / wall:8.1f} {started:8}  "
            f"{'yes' if same else 'NO'}"
        )


if __name__ == "__main__":
    main()
