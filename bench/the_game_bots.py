"""The Game bots compared: win rate, cards left and time per move, per player count.

    python bench/the_game_bots.py [--games 10000] [--players 1,2,3,4,5]
                                  [--bots expert,team,greedy] [--jobs 2] [--first 1]

Game ``i`` (0-based) of each player count is dealt from seed ``first + i`` and starts at seat 0
under the standard rules; seat ``s`` gets the bot seed ``(first + i) * 16 + s``. Every game goes
through ``cardtable.sim.play_one`` (views, legal actions, reactions), one bot per seat, so the
figures do not depend on ``--jobs``. The time per move is the mean processor time of a bot's
``choose`` (its ``react`` calls are not counted as moves): on a busy machine wall-clock time
would count the waits for the processor too. "max ms" is the longest single ``choose``.
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.sim import play_one
from cardtable.stats import wilson


class _Timed:
    """Wraps a bot and adds up the time its ``choose`` takes."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.moves = 0
        self.seconds = 0.0
        self.longest = 0.0
        if hasattr(bot, "react"):
            self.react = bot.react

    def choose(self, view: dict, legal: list[str]) -> str:
        start = time.process_time()
        action = self.bot.choose(view, legal)
        spent = time.process_time() - start
        self.seconds += spent
        self.longest = max(self.longest, spent)
        self.moves += 1
        return action


def play_chunk(task: tuple[str, int, list[int]]) -> list[tuple[int, int, int, float, float]]:
    """Play the games of ``seeds``: per game (seed, cards left, moves, seconds choosing, the
    longest move in seconds)."""
    bot, players, seeds = task
    rules = games.get("the-game")
    out = []
    for seed in seeds:
        state = rules.deal(seed, players)
        seat_bots = [_Timed(make_bot(bot, "the-game", seed * 16 + s)) for s in range(players)]
        play_one(state, seat_bots)
        out.append((seed, state.result()["cards_left"], sum(b.moves for b in seat_bots),
                    sum(b.seconds for b in seat_bots), max(b.longest for b in seat_bots)))
    return out


def run(bot: str, players: int, games_n: int, first: int, jobs: int) -> dict[str, Any]:
    """Play the games and summarise them."""
    seeds = list(range(first, first + games_n))
    size = max(1, min(100, games_n // (4 * max(1, jobs)) or 1))
    tasks = [(bot, players, seeds[i:i + size]) for i in range(0, len(seeds), size)]
    if jobs > 1:
        with Pool(jobs) as pool:
            chunks = pool.map(play_chunk, tasks)
    else:
        chunks = [play_chunk(t) for t in tasks]
    rows = sorted(r for chunk in chunks for r in chunk)
    n = len(rows)
    wins = sum(1 for r in rows if r[1] == 0)
    p = wins / n
    moves = sum(r[2] for r in rows)
    return {
        "bot": bot, "players": players, "games": n,
        "win": p, "ci95": wilson(wins, n),
        "left": sum(r[1] for r in rows) / n,
        "good": sum(1 for r in rows if r[1] <= 10) / n,
        "ms": 1000 * sum(r[3] for r in rows) / max(1, moves),
        "max_ms": 1000 * max(r[4] for r in rows),
        "cpu": sum(r[3] for r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--players", default="1,2,3,4,5")
    parser.add_argument("--bots", default="expert,team,greedy")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first", type=int, default=1, help="the first deal seed")
    args = parser.parse_args()
    counts = [int(x) for x in args.players.split(",")]
    for bot in args.bots.split(","):
        print(f"\n{bot}: {args.games} games per player count, seeds {args.first}.."
              f"{args.first + args.games - 1}, start seat 0, standard rules")
        print("| players | win % (95% CI) | mean cards left | <=10 left | ms/move | max ms |")
        print("|---|---|---|---|---|---|")
        for players in counts:
            if bot == "team" and players == 1:
                continue  # nobody to talk to: the team bot alone is the expert
            r = run(bot, players, args.games, args.first, args.jobs)
            low, high = r["ci95"]
            print(f"| {players} | {100 * r['win']:.1f} ({100 * low:.1f}-{100 * high:.1f}) "
                  f"| {r['left']:.2f} "
                  f"| {100 * r['good']:.1f} % | {r['ms']:.2f} | {r['max_ms']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
