"""The Game bots compared: win rate, cards left and time per move, per player count.

    python bench/the_game_bots.py [--games 10000] [--players 1,2,3,4,5]
                                  [--bots expert,team,greedy] [--jobs 2] [--first 1]
                                  [--solved 'solve_{players}.json']
                                  [--save rows.json | --rows rows.json]
                                  [--paired old_rows.json]

Game ``i`` (0-based) of each player count is dealt from seed ``first + i`` and starts at seat 0
under the standard rules; seat ``s`` gets the bot seed ``(first + i) * 16 + s``. Every game goes
through ``cardtable.sim.play_one`` (views, legal actions, reactions), one bot per seat, so the
figures do not depend on ``--jobs``. The time per move is the mean processor time of a bot's
``choose`` (its ``react`` calls are not counted as moves): on a busy machine wall-clock time
would count the waits for the processor too. "max ms" is the longest single ``choose``.

With ``--solved`` (a file name with ``{players}`` in it: the JSON that ``cardtable solve
the-game --players N --seeds ... --json`` printed for that count, over the same seeds; or
several, comma-separated, the later ones deciding deals the earlier left undecided), each
row adds the bot's share of the winnable deals: its wins over the deals a perfect team could
win. Deals the solver left undecided make it a range: at the low end every undecided deal
counts as winnable; at the high end only those the bot itself won (a win is a proof that
the deal is winnable). A bot win on a deal the solver proved lost would be a solver bug: the
script stops on it. ``--save FILE`` keeps every game's row (seed, cards left, moves, processor
seconds, longest move) per bot and count; ``--rows FILE`` prints the tables from such a file
instead of playing (so the shares can be added once the solver has run). ``--paired FILE``
compares each row with another bot's rows over the same seeds (``--save``'s file of an older
version, say): the games this one won that the other lost and the other way round, and the
difference in win rate with a 95 % interval for paired proportions (normal approximation).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from multiprocessing import Pool
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.games.the_game import TheGameState
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
        assert isinstance(state, TheGameState)
        seat_bots = [_Timed(make_bot(bot, "the-game", seed * 16 + s)) for s in range(players)]
        play_one(state, seat_bots)
        out.append(
            (
                seed,
                state.result()["cards_left"],
                sum(b.moves for b in seat_bots),
                sum(b.seconds for b in seat_bots),
                max(b.longest for b in seat_bots),
            )
        )
    return out


def load_solved(patterns: str, players: int) -> dict[int, str]:
    """seed -> "won", "lost" or "unknown" from the solver's JSON for ``players``; with several
    comma-separated files (a second run of the undecided deals at a larger budget, say), a
    later file's answer replaces an "unknown"."""
    out: dict[int, str] = {}
    for pattern in patterns.split(","):
        with open(pattern.format(players=players)) as f:
            data = json.load(f)
        if data.get("players", players) != players:
            raise SystemExit(f"{pattern.format(players=players)} is for {data['players']} players")
        for d in data["deals"]:
            if out.get(d["seed"], "unknown") == "unknown":
                out[d["seed"]] = d["status"]
    return out


def share(
    rows: list[tuple[int, int, int, float, float]], solved: dict[int, str]
) -> tuple[int, int, int, int]:
    """(bot wins, deals the solver won, undecided deals, undecided deals the bot won)."""
    wins = won = unknown = proved = 0
    for seed, left, *_ in rows:
        status = solved.get(seed)
        if status is None:
            raise SystemExit(f"deal {seed} is not in the solver's file")
        if status == "lost" and left == 0:
            raise SystemExit(f"deal {seed}: the bot won a deal the solver proved lost")
        wins += left == 0
        won += status == "won"
        unknown += status == "unknown"
        proved += status == "unknown" and left == 0
    return wins, won, unknown, proved


def play(
    bot: str, players: int, games_n: int, first: int, jobs: int
) -> list[tuple[int, int, int, float, float]]:
    """Play the games: one row per game, in seed order."""
    seeds = list(range(first, first + games_n))
    size = max(1, min(100, games_n // (4 * max(1, jobs)) or 1))
    tasks = [(bot, players, seeds[i : i + size]) for i in range(0, len(seeds), size)]
    if jobs > 1:
        with Pool(jobs) as pool:
            chunks = pool.map(play_chunk, tasks)
    else:
        chunks = [play_chunk(t) for t in tasks]
    return sorted(r for chunk in chunks for r in chunk)


def paired(
    rows: list[tuple[int, int, int, float, float]], other: list[tuple[int, int, int, float, float]]
) -> tuple[int, int, float, float]:
    """(games won here and lost there, lost here and won there, the difference in win rate,
    the half width of its 95 % interval) over the same seeds."""
    theirs = {r[0]: r[1] == 0 for r in other}
    if set(theirs) != {r[0] for r in rows}:
        raise SystemExit("--paired: the two runs are not over the same seeds")
    better = sum(1 for r in rows if r[1] == 0 and not theirs[r[0]])
    worse = sum(1 for r in rows if r[1] != 0 and theirs[r[0]])
    n = len(rows)
    diff = (better - worse) / n
    half = 1.96 * math.sqrt(max(0.0, better + worse - (better - worse) ** 2 / n)) / n
    return better, worse, diff, half


def run(
    rows: list[tuple[int, int, int, float, float]],
    bot: str,
    players: int,
    solved: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Summarise the games' rows."""
    n = len(rows)
    wins = sum(1 for r in rows if r[1] == 0)
    p = wins / n
    moves = sum(r[2] for r in rows)
    return {
        "bot": bot,
        "players": players,
        "games": n,
        "win": p,
        "ci95": wilson(wins, n),
        "left": sum(r[1] for r in rows) / n,
        "good": sum(1 for r in rows if r[1] <= 10) / n,
        "ms": 1000 * sum(r[3] for r in rows) / max(1, moves),
        "max_ms": 1000 * max(r[4] for r in rows),
        "cpu": sum(r[3] for r in rows),
        "share": share(rows, solved) if solved is not None else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--players", default="1,2,3,4,5")
    parser.add_argument("--bots", default="expert,team,greedy")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first", type=int, default=1, help="the first deal seed")
    parser.add_argument(
        "--solved", default=None, help="the solver's JSON per count, e.g. 'solve_{players}.json'"
    )
    parser.add_argument("--save", default=None, help="write every game's row to this JSON file")
    parser.add_argument("--rows", default=None, help="read the rows from --save's file, no play")
    parser.add_argument(
        "--paired", default=None, help="compare with the rows of this --save file, same seeds"
    )
    args = parser.parse_args()
    counts = [int(x) for x in args.players.split(",")]
    saved: dict[str, list[Any]] = {}
    if args.rows:
        with open(args.rows) as f:
            saved = json.load(f)
    solved = {n: load_solved(args.solved, n) for n in counts} if args.solved else {}
    other: dict[str, list[Any]] = {}
    if args.paired:
        with open(args.paired) as f:
            other = json.load(f)
    for bot in args.bots.split(","):
        print(
            f"\n{bot}: {args.games} games per player count, seeds {args.first}.."
            f"{args.first + args.games - 1}, start seat 0, standard rules"
        )
        extra = " wins / winnable deals |" if solved else ""
        if other:
            extra += " won here, lost there | lost here, won there | difference (95 % CI) |"
        print(
            f"| players | win % (95% CI) | mean cards left | <=10 left | ms/move | max ms |{extra}"
        )
        print(
            "|---|---|---|---|---|---|"
            + ("---|" if solved else "")
            + ("---|---|---|" if other else "")
        )
        for players in counts:
            if bot == "team" and players == 1:
                continue  # nobody to talk to: the team bot alone is the expert
            name = f"{bot}/{players}"
            if args.rows:
                rows = [tuple(r) for r in saved[name]]
                if [r[0] for r in rows] != list(range(args.first, args.first + args.games)):
                    raise SystemExit(
                        f"{args.rows}: {name} is not seeds {args.first}.. "
                        f"{args.first + args.games - 1}"
                    )
            else:
                rows = play(bot, players, args.games, args.first, args.jobs)
            saved[name] = rows
            r = run(rows, bot, players, solved.get(players))
            low, high = r["ci95"]
            cell = ""
            if r["share"] is not None:
                wins, won, unknown, proved = r["share"]
                few, many = won + proved, won + unknown  # the winnable deals: fewest, most
                cell = (
                    f" {wins} of {few}-{many} = {100 * wins / max(1, many):.1f}"
                    f"-{100 * wins / max(1, few):.1f} % |"
                )
            if other:
                better, worse, diff, half = paired(rows, [tuple(r) for r in other[name]])
                cell += (
                    f" {better} | {worse} | {100 * diff:+.1f} ({100 * (diff - half):+.1f}"
                    f" to {100 * (diff + half):+.1f}) |"
                )
            print(
                f"| {players} | {100 * r['win']:.1f} ({100 * low:.1f}-{100 * high:.1f}) "
                f"| {r['left']:.2f} "
                f"| {100 * r['good']:.1f} % | {r['ms']:.2f} | {r['max_ms']:.0f} |{cell}",
                flush=True,
            )
    if args.save:
        with open(args.save, "w") as f:
            json.dump(saved, f)


if __name__ == "__main__":
    main()
