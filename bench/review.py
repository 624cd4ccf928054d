"""What a game review costs, and where its marks fall, on games played by bots.

    python bench/review.py [--games 5] [--depth normal] [--cases slide:4:greedy,...]

Each case is GAME:PLAYERS:BOT: deals 1..N played by that bot in every seat, then reviewed
(every seat). Columns: the processor seconds of one review (mean and the longest), the
decisions reviewed, the samples drawn per decision, and per 100 decisions the moves marked at
the thresholds in use (10 / 20 / 30 points) and, beside them, at lichess's chess thresholds
(5 / 10 / 15), which shows why these games need larger ones: luck moves the winning chance
more than a chess move does. Strong bots against weak ones is how the thresholds were chosen
(docs/review.md): a strong player's moves should seldom be marked, a weak player's often.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from cardtable import games
from cardtable.bots import make_bot
from cardtable.review import review_record
from cardtable.sim import play_one

CASES = (
    "slide:4:greedy,slide:4:search,doublets:1:greedy,doublets:1:fair,"
    "the-game:3:greedy,the-game:3:expert"
)


def play(game: str, players: int, bot: str, seed: int) -> dict:
    state = games.get(game).deal(seed, players)
    play_one(state, [make_bot(bot, game, seed=s) for s in range(players)])
    return state.record()


def per_hundred(drops: list[float], at: float) -> float:
    return round(100 * sum(d >= at for d in drops) / len(drops), 1) if drops else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="deals 1..N per case")
    parser.add_argument("--first", type=int, default=1, help="the first deal")
    parser.add_argument("--depth", default="normal", help="quick, normal or deep")
    parser.add_argument("--cases", default=CASES, help="GAME:PLAYERS:BOT, comma-separated")
    args = parser.parse_args()
    table = Table(
        "game",
        "players",
        "bot",
        "games",
        "cpu s mean",
        "cpu s max",
        "decisions",
        "samples",
        "marked /100 at 10·20·30",
        "at 5·10·15",
        title=f"game review at depth {args.depth}",
    )
    for case in args.cases.split(","):
        game, players, bot = case.split(":")
        cpu, drops, decisions, samples = [], [], 0, []
        for seed in range(args.first, args.first + args.games):
            record = play(game, int(players), bot, seed)
            start = time.process_time()
            review = review_record(record, depth=args.depth)
            cpu.append(time.process_time() - start)
            decisions += len(review["moves"])
            drops += [m["drop"] for m in review["moves"]]
            samples += [m["samples"] for m in review["moves"]]
        ours = " · ".join(str(per_hundred(drops, at)) for at in (10, 20, 30))
        chess = " · ".join(str(per_hundred(drops, at)) for at in (5, 10, 15))
        table.add_row(
            game,
            players,
            bot,
            str(args.games),
            f"{statistics.mean(cpu):.1f}",
            f"{max(cpu):.1f}",
            str(decisions),
            f"{statistics.mean(samples):.0f}" if samples else "-",
            ours,
            chess,
        )
    Console().print(table)


if __name__ == "__main__":
    main()
