"""The Slide search bot against the greedy bot: win rates, scores and time per move.

    python bench/slide_bots.py --games 2000 --level hard --jobs 2

Two settings, each over ``--games`` seeded games (game ``i`` is dealt with seed ``seed + i``):
(a) 2 players, the search bot alternating seats (seat ``i % 2``) against one greedy bot;
(b) 4 players, one search bot rotating through the seats (seat ``i % 4``) and three greedy bots.
Every bot is seeded from its game (seat ``s`` gets ``game seed * 16 + s``), so the figures do not
depend on ``--jobs``. A shared win counts as a win for each winner; shared wins are shown too.
Time per move is measured around every ``choose`` of the search bot (forced moves included):
CPU time of the process (what the bot costs on one core) and wall-clock time (machine load
included).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.sim import play_one
from cardtable.stats import wilson


class Timed:
    """A bot wrapper that times each decision."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def choose(self, view: dict, legal: list[str]) -> str:
        c, w = time.process_time(), time.perf_counter()
        action = self.bot.choose(view, legal)
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)
        return action


def play(task: tuple[int, int, str, int]) -> dict[str, Any]:
    """One game: ``players`` seats, the search bot at seat ``index % players``."""
    index, players, level, seed = task
    deal_seed = seed + index
    seat = index % players
    seat_bots: list[Any] = [make_bot("greedy", "slide", deal_seed * 16 + s) for s in range(players)]
    timed = Timed(make_bot(f"search:{level}", "slide", deal_seed * 16 + seat))
    seat_bots[seat] = timed
    state = games.get("slide").deal(deal_seed, players)
    play_one(state, seat_bots)
    result = state.result()
    winners = result["winners"]
    others = [result["scores"][s] for s in range(players) if s != seat]
    return {
        "seat": seat, "win": seat in winners, "shared": seat in winners and len(winners) > 1,
        "score": result["scores"][seat], "greedy_score": sum(others) / len(others),
        "cpu": timed.cpu, "wall": timed.wall,
    }


def ci(wins: int, n: int) -> str:
    """The 95 % Wilson interval of a win share, in percent: ``(80.1-85.3)``."""
    low, high = wilson(wins, n)
    return f"({100 * low:4.1f}-{100 * high:4.1f})"


def report(name: str, rows: list[dict[str, Any]], players: int, seats: bool = True) -> None:
    n = len(rows)
    wins = sum(r["win"] for r in rows)
    shared = sum(r["shared"] for r in rows)
    rate = wins / n
    score = sum(r["score"] for r in rows) / n
    greedy = sum(r["greedy_score"] for r in rows) / n
    cpu = [t for r in rows for t in r["cpu"]]
    wall = [t for r in rows for t in r["wall"]]
    print(f"{name:<26} {n:>6} {100 * rate:>6.1f} {ci(wins, n)} {shared:>7} "
          f"{score:>7.1f} {greedy:>7.1f} {1000 * sum(cpu) / len(cpu):>8.1f} "
          f"{1000 * max(cpu):>7.0f} {1000 * sum(wall) / len(wall):>8.1f} "
          f"{1000 * max(wall):>7.0f}", flush=True)
    for seat in range(players if seats else 0):
        mine = [r for r in rows if r["seat"] == seat]
        if mine:
            won = sum(r["win"] for r in mine)
            print(f"  bot in seat {seat:<14} {len(mine):>6} {100 * won / len(mine):>6.1f} "
                  f"{ci(won, len(mine))} {sum(r['shared'] for r in mine):>7} "
                  f"{sum(r['score'] for r in mine) / len(mine):>7.1f} "
                  f"{sum(r['greedy_score'] for r in mine) / len(mine):>7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0,
                        help="print the figures so far every N games")
    parser.add_argument("--players", default="2,4", help="settings to run: 2, 4 or 2,4")
    args = parser.parse_args()
    print(f"search:{args.level} vs greedy, {args.games} games a setting, seed {args.seed}, "
          f"{args.jobs} job(s)")
    print(f"{'setting':<26} {'games':>6} {'win %':>6} {'95 % CI':^11} {'shared':>7} "
          f"{'score':>7} {'greedy':>7} {'cpu ms':>8} {'max':>7} {'wall ms':>8} {'max':>7}")
    for players in (int(p) for p in args.players.split(",")):
        tasks = [(i, players, args.level, args.seed) for i in range(args.games)]
        start = time.perf_counter()
        label = (f"{players}p: 1 search vs 1 greedy" if players == 2
                 else f"{players}p: 1 search + {players - 1} greedy")
        rows: list[dict[str, Any]] = []
        with ProcessPoolExecutor(args.jobs) as pool:
            for row in pool.map(play, tasks, chunksize=8):  # in game order, whatever the jobs
                rows.append(row)
                if args.progress and len(rows) % args.progress == 0 and len(rows) < args.games:
                    report(f"  ({players}p, first {len(rows)})", rows, players, seats=False)
        report(label, rows, players)
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    print("win %: the search bot's wins (shared ones included) with a 95 % interval; score: its"
          " mean score; greedy: the greedy bots' mean score; ms: per search-bot move.")


if __name__ == "__main__":
    main()
