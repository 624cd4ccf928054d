"""The Slide evaluation panel: every bot against every opponent, seeded, with intervals.

    python bench/slide_bots.py --games 200 --jobs 1
    python bench/slide_bots.py --bots search:hard --opponents greedy:random-reveal \\
        --players 2,4 --games 2000 --save panel.jsonl
    python bench/slide_bots.py --matrix panel.jsonl more.jsonl
    python bench/slide_bots.py --bots search:variant --variant '{"first": 2, "samples": 8}' \\
        --opponents greedy:random-reveal --players 2 --games 200 --seed 50001 --games-out a.jsonl
    python bench/slide_bots.py --paired a.jsonl b.jsonl    # the same deals, game by game

A pairing is a bot under test against an opponent, over ``--games`` games; game ``i`` is dealt
with seed ``seed + i``, the same deals for every pairing.
- 2 players: one bot and one opponent, the bot in seat ``i % 2`` (both seats, per-seat rows).
- 4 players: one bot and three copies of ``--opponents4`` (default the random-reveal greedy),
  the bot in seat ``i % 4``.
Every bot is seeded from its game (seat ``s`` gets ``deal seed * 16 + s``), and results come
back in game order, so the figures do not depend on ``--jobs``. A shared win counts as a win
for each winner; shared wins are shown. Time per move is the CPU time of the process around
every ``choose`` of the bot under test (forced moves included): what it costs on one core.

The panel's bots (``--bots``, default all) and opponents (``--opponents``, default all):
``greedy`` (reveals centre cells first), ``greedy:random-reveal`` (a uniformly random face-down
cell, then takes like greedy), ``search:easy|normal|hard`` (the current search bot),
``search-v1:hard`` (the search bot as it was before issue #12, frozen in
``cardtable.bots.slide.search_v1``). Any bot spec ``make_bot`` knows works too, and as a bot
under test ``oracle`` (``cardtable.bots.slide.oracle``): ``search:hard`` reading the true
state, what knowing every card is worth to the search (it peeks; not in the default panel).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.slide.oracle import SlideOracle
from cardtable.bots.slide.search import SearchBot
from cardtable.games.slide import SlideState
from cardtable.sim import play_one
from cardtable.stats import wilson

PANEL = [
    "greedy",
    "greedy:random-reveal",
    "search:easy",
    "search:normal",
    "search:hard",
    "search-v1:hard",
]
RANDOM_REVEAL = "greedy:random-reveal"
ORACLE = "oracle"


class Timed:
    """A bot wrapper that times each decision (CPU time of the process)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu: list[float] = []

    def choose(self, view: dict, legal: list[str]) -> str:
        c = time.process_time()
        action = self.bot.choose(view, legal)
        self.cpu.append(time.process_time() - c)
        return action


def play(task: tuple[int, int, str, str, int]) -> dict[str, Any]:
    """One game: the bot under test at seat ``index % players``, opponents elsewhere."""
    index, players, bot, opponent, seed = task
    deal_seed = seed + index
    seat = index % players
    seat_bots: list[Any] = [make_bot(opponent, "slide", deal_seed * 16 + s) for s in range(players)]
    state = games.get("slide").deal(deal_seed, players)
    assert isinstance(state, SlideState)
    if bot == ORACLE:  # peeks: a study of the search with every card known, never a player
        timed = Timed(SlideOracle(state, deal_seed * 16 + seat))
    else:
        timed = Timed(make_bot(bot, "slide", deal_seed * 16 + seat))
    seat_bots[seat] = timed
    play_one(state, seat_bots)
    result = state.result()
    winners = result["winners"]
    others = [result["scores"][s] for s in range(players) if s != seat]
    return {
        "seat": seat,
        "win": seat in winners,
        "shared": seat in winners and len(winners) > 1,
        "score": result["scores"][seat],
        "other_score": sum(others) / len(others),
        "cpu_sum": sum(timed.cpu),
        "cpu_max": max(timed.cpu),
        "moves": len(timed.cpu),
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Games, wins, shared wins, mean scores and CPU per move of some games."""
    n = len(rows)
    moves = sum(r["moves"] for r in rows)
    return {
        "games": n,
        "wins": sum(r["win"] for r in rows),
        "shared": sum(r["shared"] for r in rows),
        "score": sum(r["score"] for r in rows) / n,
        "other_score": sum(r["other_score"] for r in rows) / n,
        "cpu_ms": 1000 * sum(r["cpu_sum"] for r in rows) / moves,
        "cpu_max_ms": 1000 * max(r["cpu_max"] for r in rows),
    }


def ci(wins: int, n: int) -> str:
    """The 95 % Wilson interval of a win share, in percent: ``(80.1-85.3)``."""
    low, high = wilson(wins, n)
    return f"({100 * low:4.1f}-{100 * high:4.1f})"


HEADER = (
    f"{'bot':<22} {'opponent':<24} {'games':>6} {'win %':>6} {'95 % CI':^11} "
    f"{'shared':>6} {'score':>6} {'opp':>6} {'cpu ms':>7} {'max':>6}"
)


def line(bot: str, opponent: str, s: dict[str, Any]) -> str:
    rate = 100 * s["wins"] / s["games"]
    cpu = f"{s['cpu_ms']:>7.2f} {s['cpu_max_ms']:>6.0f}" if "cpu_ms" in s else ""
    return (
        f"{bot:<22} {opponent:<24} {s['games']:>6} {rate:>6.1f} {ci(s['wins'], s['games'])}"
        f" {s['shared']:>6} {s['score']:>6.1f} {s['other_score']:>6.1f} {cpu}"
    )


def label(players: int, opponent: str) -> str:
    return opponent if players == 2 else f"3 x {opponent} (4p)"


def entry_of(
    players: int, bot: str, opponent: str, seed: int, rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """A pairing's figures as ``--save`` writes them: the total and one summary per seat."""
    seats = [
        summary(mine) for seat in range(players) if (mine := [r for r in rows if r["seat"] == seat])
    ]
    return {
        "players": players,
        "bot": bot,
        "opponent": opponent,
        "seed": seed,
        **summary(rows),
        "seats": seats,
    }


def run_pairing(
    players: int,
    bot: str,
    opponent: str,
    games_n: int,
    seed: int,
    jobs: int,
    progress: int = 0,
    save: str | None = None,
    games_out: str | None = None,
) -> dict[str, Any]:
    """Play one pairing and print its detail; the summary, per-seat ones included."""
    tasks = [(i, players, bot, opponent, seed) for i in range(games_n)]
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(jobs) as pool:
        for row in pool.map(play, tasks, chunksize=4):  # in game order, whatever the jobs
            rows.append(row)
            if games_out:
                with open(games_out, "a", encoding="utf-8") as out:
                    out.write(
                        json.dumps(
                            {
                                "players": players,
                                "bot": bot,
                                "opponent": opponent,
                                "deal": seed + len(rows) - 1,
                                **row,
                            }
                        )
                        + "\n"
                    )
            if progress and len(rows) % progress == 0 and len(rows) < games_n:
                print(
                    line(f"  (first {len(rows)})", label(players, opponent), summary(rows)),
                    flush=True,
                )
                if save:  # the figures so far, seats included, in case the run is cut short
                    with open(save + ".partial", "w", encoding="utf-8") as out:
                        out.write(json.dumps(entry_of(players, bot, opponent, seed, rows)) + "\n")
    entry = entry_of(players, bot, opponent, seed, rows)
    print(line(bot, label(players, opponent), entry), flush=True)
    for seat, s in enumerate(entry["seats"]):
        print(line(f"  bot in seat {seat}", "", s))
    print(f"  ({time.perf_counter() - start:.0f} s wall)", flush=True)
    return entry


def merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Summaries of disjoint runs of games as one (counts added, means weighted)."""
    n = sum(p["games"] for p in parts)
    # weighing CPU by games is exact: a seat makes 32 moves in every game (16 rounds)
    out: dict[str, Any] = {
        "games": n,
        "wins": sum(p["wins"] for p in parts),
        "shared": sum(p["shared"] for p in parts),
        "score": sum(p["score"] * p["games"] for p in parts) / n,
        "other_score": sum(p["other_score"] * p["games"] for p in parts) / n,
        "cpu_ms": sum(p["cpu_ms"] * p["games"] for p in parts) / n,
        "cpu_max_ms": max(p["cpu_max_ms"] for p in parts),
    }
    return out


def combine(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries of the same pairing run on disjoint seeds (``--seed 1 --games 1000`` and
    ``--seed 1001 --games 1000``, or the ``.partial`` figures of runs cut short) as one."""
    groups: dict[tuple[int, str, str], list[dict[str, Any]]] = {}
    for e in entries:
        groups.setdefault((e["players"], e["bot"], e["opponent"]), []).append(e)
    out = []
    for (players, bot, opponent), parts in groups.items():
        parts.sort(key=lambda e: e["seed"])
        for a, b in zip(parts, parts[1:], strict=False):
            # a game's seat is its index in its run modulo the players: runs that start a
            # multiple of the players apart seat every game as one long run would
            if a["seed"] + a["games"] > b["seed"] or (b["seed"] - parts[0]["seed"]) % players:
                raise SystemExit(f"{bot} vs {opponent}: runs that overlap or split the seats")
        seats = [merged([p["seats"][s] for p in parts]) for s in range(len(parts[0]["seats"]))]
        seeds = ", ".join(f"{p['seed']}..{p['seed'] + p['games'] - 1}" for p in parts)
        out.append(
            {
                "players": players,
                "bot": bot,
                "opponent": opponent,
                "seed": parts[0]["seed"],
                "seeds": seeds,
                **merged(parts),
                "seats": seats,
            }
        )
    return out


def paired(first: str, second: str) -> None:
    """Two ``--games-out`` files on the same deals: each bot's wins there, the deals only one of
    them won, and the sign test's z on those (positive: the second bot better)."""

    def load(path: str) -> dict[tuple[int, int, str], dict[str, Any]]:
        with open(path, encoding="utf-8") as saved:
            rows = [json.loads(text) for text in saved if text.strip()]
        return {(r["players"], r["deal"], r["opponent"]): r for r in rows}

    a, b = load(first), load(second)
    common = sorted(set(a) & set(b))
    if not common:
        raise SystemExit("no deal is in both files")
    only_a = sum(1 for k in common if a[k]["win"] and not b[k]["win"])
    only_b = sum(1 for k in common if b[k]["win"] and not a[k]["win"])
    z = (only_b - only_a) / (only_a + only_b) ** 0.5 if only_a + only_b else 0.0
    n = len(common)
    for path, rows in ((first, a), (second, b)):
        wins = sum(rows[k]["win"] for k in common)
        print(
            f"{path}: {rows[common[0]]['bot']} won {wins} of {n} = {100 * wins / n:.1f} % "
            f"{ci(wins, n)}"
        )
    print(f"won only by the first: {only_a}, only by the second: {only_b}, z = {z:+.2f}")


def matrix(entries: list[dict[str, Any]]) -> None:
    """Rows: bots; columns: opponents (2 players) and the 4-player setting; cells: win %."""
    columns: list[tuple[int, str]] = []
    bots: list[str] = []
    cells: dict[tuple[str, int, str], dict[str, Any]] = {}
    for e in entries:
        key = (e["players"], e["opponent"])
        if key not in columns:
            columns.append(key)
        if e["bot"] not in bots:
            bots.append(e["bot"])
        cells[(e["bot"], *key)] = e
    columns.sort(key=lambda k: (k[0], PANEL.index(k[1]) if k[1] in PANEL else len(PANEL)))
    heads = [label(p, o) for p, o in columns]
    print("| bot \\ opponent | " + " | ".join(heads) + " |")
    print("|---" * (len(heads) + 1) + "|")
    for bot in bots:
        out = []
        for p, o in columns:
            cell = cells.get((bot, p, o))
            out.append(
                ""
                if cell is None
                else f"{100 * cell['wins'] / cell['games']:.1f} {ci(cell['wins'], cell['games'])}"
                f" n={cell['games']}"
            )
        print(f"| {bot} | " + " | ".join(out) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default=",".join(PANEL), help="bots under test, comma-separated")
    parser.add_argument(
        "--opponents", default=",".join(PANEL), help="2-player opponents, comma-separated"
    )
    parser.add_argument(
        "--opponents4", default=RANDOM_REVEAL, help="the three opponents of the 4-player setting"
    )
    parser.add_argument("--players", default="2,4", help="settings to run: 2, 4 or 2,4")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--progress", type=int, default=0, help="print the figures so far every N games"
    )
    parser.add_argument("--save", help="append each pairing's figures to this JSON-lines file")
    parser.add_argument("--games-out", help="append every game's row to this JSON-lines file")
    parser.add_argument(
        "--paired",
        nargs=2,
        metavar="FILE",
        help="compare two --games-out files game by game; play nothing",
    )
    parser.add_argument(
        "--variant",
        metavar="JSON",
        help="bot search:variant is search:hard with these settings changed, "
        'e.g. \'{"first": 2, "samples": 8}\' (for tuning)',
    )
    parser.add_argument(
        "--matrix",
        nargs="+",
        metavar="FILE",
        help="print only the matrix of pairings saved in these files",
    )
    args = parser.parse_args()
    if args.paired:
        paired(*args.paired)
        return
    if args.variant:  # registered before the pool forks, so its workers know it too
        SearchBot.LEVELS["variant"] = {**SearchBot.LEVELS["hard"], **json.loads(args.variant)}
    if args.matrix:
        entries = []
        for path in args.matrix:
            with open(path, encoding="utf-8") as saved:
                entries += [json.loads(text) for text in saved if text.strip()]
        entries = combine(entries)
        print(HEADER)
        for e in entries:
            print(line(e["bot"], label(e["players"], e["opponent"]), e) + f"  seeds {e['seeds']}")
            for seat, s in enumerate(e["seats"]):
                print(line(f"  bot in seat {seat}", "", s))
        matrix(entries)
        return
    print(
        f"Slide panel: {args.games} games a pairing, seeds {args.seed}..."
        f"{args.seed + args.games - 1}, {args.jobs} job(s)"
    )
    print(HEADER)
    entries = []
    for players in (int(p) for p in args.players.split(",")):
        opponents = args.opponents.split(",") if players == 2 else [args.opponents4]
        for bot in args.bots.split(","):
            for opponent in opponents:
                entry = run_pairing(
                    players,
                    bot,
                    opponent,
                    args.games,
                    args.seed,
                    args.jobs,
                    args.progress,
                    args.save,
                    args.games_out,
                )
                entries.append(entry)
                if args.save:
                    with open(args.save, "a", encoding="utf-8") as out:
                        out.write(json.dumps(entry) + "\n")
    print(
        "win %: the bot's wins (shared ones included) with a 95 % Wilson interval; score: its"
        " mean score; opp: the opponents' mean score; cpu ms: per move of the bot (mean, max)."
    )
    matrix(entries)


if __name__ == "__main__":
    main()
