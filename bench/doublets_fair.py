"""The fair Doublets bot's win rate over seeds 1..N (it plays from views only).

    python bench/doublets_fair.py [--games 1000] [--jobs 1] [--level normal] [--out FILE]
    python bench/doublets_fair.py --diagnose 442,509,1000-1010 [--level normal]

Prints games won with the 95 % Wilson interval, the mean CPU milliseconds per game and per
bot move (the bot's own time, the engine's excluded), the slowest move, how many moves took
over 1 s and over 0.5 s of CPU (and in which games), and the most search nodes one move
spent (the bot's ``spent``). ``--out`` writes
one JSON line per game as it finishes (seed, won, score, moves, ms), so a run stopped early
still leaves its games; ``--summary FILE`` prints the table of such a file instead of playing.

Bot seeds: the deal's seed by default; with ``--bot-key KEY`` they are derived as
``cardtable simulate --bot-key KEY`` derives them (``cardtable.seeds.bot_seed``), so a deal
lost under ``simulate`` can be replayed and diagnosed here.

``--retime SEEDS`` plays those deals (e.g. the ones a run found with a move over 0.5 s) and
prints each one's slowest move, then asks a hint (``FairBot.hint``, what the server's and the
terminal's hint button call) at that very position, of a copy of the bot that watched the game
(as the server's advisor is), and times it too.

``--diagnose SEEDS`` plays those deals and, for each one the bot loses that the solver wins,
replays the bot's game with full knowledge (``solvers.doublets.first_mistake``, a peeking study
tool) and prints the first move after which the deal could no longer be won, the move played,
a winning alternative, the pass it was played in, and the bot's own reason for it.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.doublets.fair import FairBot
from cardtable.games.doublets import DoubletsState
from cardtable.seeds import bot_seed
from cardtable.solvers.doublets import first_mistake, solve_seed
from cardtable.stats import wilson


def play(args: tuple[int, str] | tuple[int, str, int | None], trace: bool = False) -> dict:
    """One game: a JSON-ready record (with ``trace``: also its actions and the bot's
    reasons)."""
    seed, spec, key = args if len(args) == 3 else (*args, None)
    wall = time.perf_counter()
    state = games.get("doublets").deal(seed)
    assert isinstance(state, DoubletsState)
    bot = make_bot(spec, "doublets", seed if key is None else bot_seed(key, seed, 0))
    moves = over_half = over_one = most_nodes = 0
    bot_cpu = slowest = slowest_later = 0.0
    actions, reasons = [], []
    while not state.over:
        legal = state.legal(0)
        view = state.view(0)
        cpu = time.process_time()
        if trace and hasattr(bot, "decide"):
            action, reason = bot.decide(view, legal)
        else:
            action, reason = bot.choose(view, legal), ""
        cpu = time.process_time() - cpu
        bot_cpu += cpu
        slowest = max(slowest, cpu)
        if view["redeals_left"] < 2 or not view["stock"]:
            slowest_later = max(slowest_later, cpu)  # the stock known: the exact search's
        over_half += cpu > 0.5
        over_one += cpu > 1.0
        most_nodes = max(most_nodes, getattr(bot, "spent", 0))  # the move's search nodes
        moves += 1
        state.act(0, action)
        actions.append(action)
        reasons.append(reason)
    out: dict[str, Any] = {
        "seed": seed,
        "won": state.won,
        "score": len(state.foundation),
        "moves": moves,
        "cpu_ms": round(1000 * bot_cpu, 3),
        "max_move_ms": round(1000 * slowest, 3),
        "max_later_move_ms": round(1000 * slowest_later, 3),
        "moves_over_500ms": over_half,
        "moves_over_1s": over_one,
        "max_move_nodes": most_nodes,
        "wall_ms": round(1000 * (time.perf_counter() - wall), 3),
    }
    if trace:
        out["actions"], out["reasons"] = actions, reasons
    return out


def retime(seeds: list[int], spec: str, key: int | None) -> None:
    """Each deal's slowest move, and a hint at that position (see the module docstring)."""
    worst_move = worst_hint = 0.0
    for seed in seeds:
        record = play((seed, spec, key), trace=True)
        slowest = record["max_move_ms"]
        # the same game again up to that move (the bot's moves are the same: no clock in it)
        state = games.get("doublets").deal(seed)
        bot = make_bot(spec, "doublets", seed if key is None else bot_seed(key, seed, 0))
        times = []
        for action in record["actions"]:
            view, legal = state.view(0), state.legal(0)
            cpu = time.process_time()
            assert bot.choose(view, legal) == action
            times.append(time.process_time() - cpu)
            state.act(0, action)
        at = max(range(len(times)), key=times.__getitem__)
        state = games.get("doublets").deal(seed)
        bot = make_bot(spec, "doublets", seed if key is None else bot_seed(key, seed, 0))
        for action in record["actions"][:at]:
            bot.choose(state.view(0), state.legal(0))
            state.act(0, action)
        advisor = copy.deepcopy(bot)
        assert isinstance(advisor, FairBot)
        cpu = time.process_time()
        hinted, _reason = advisor.hint(state.view(0), state.legal(0))
        hint_ms = 1000 * (time.process_time() - cpu)
        again = 1000 * max(times)
        worst_move, worst_hint = max(worst_move, slowest, again), max(worst_hint, hint_ms)
        print(
            f"deal {seed}: slowest move {slowest:.0f} ms (again: move {at + 1}, {again:.0f} ms, "
            f"{record['max_move_nodes']} nodes at most); the hint there: {hinted!r} in "
            f"{hint_ms:.0f} ms"
        )
    print(f"slowest move {worst_move:.0f} ms; slowest hint {worst_hint:.0f} ms")


def parse_seeds(text: str) -> list[int]:
    """``"442,509,1000-1010"`` as a list of seeds."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.strip().partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def diagnose(seeds: list[int], spec: str, key: int | None) -> None:
    """For each deal the bot loses and the solver wins: where it went wrong (peeks, to study)."""
    for seed in seeds:
        record = play((seed, spec, key), trace=True)
        if record["won"]:
            print(f"deal {seed}: won")
            continue
        if not solve_seed(seed).won:
            print(f"deal {seed}: lost, and the solver proves it cannot be won")
            continue
        start = games.get("doublets").deal(seed)
        assert isinstance(start, DoubletsState)
        found = first_mistake(start, record["actions"])
        assert found is not None  # a winnable deal the bot lost has a first losing move
        why = record["reasons"][found.move - 1]
        print(
            f"deal {seed}: lost ({record['score']} cards); move {found.move} "
            f"'{found.played}' (needs {found.needed}, "
            f"{'first pass' if found.first_pass else 'a later pass'}) loses the win; "
            f"'{found.alternative}' keeps it; the bot's reason: {why}"
        )


def summary(results: list[dict], label: str) -> None:
    won = sum(r["won"] for r in results)
    n = len(results)
    low, high = wilson(won, n)
    seeds = sorted(r["seed"] for r in results)
    cpu = sum(r["cpu_ms"] for r in results)
    moves = sum(r["moves"] for r in results)
    print(
        f"{label} over {n} seeds ({seeds[0]}..{seeds[-1]}): won {won} of {n} = "
        f"{100 * won / n:.2f} % (95 % CI {100 * low:.2f} - {100 * high:.2f} %)"
    )
    worst = max(results, key=lambda r: r["max_move_ms"])
    print(
        f"bot CPU: mean {cpu / n:.0f} ms a game, {cpu / moves:.2f} ms a move "
        f"({moves / n:.0f} moves a game); slowest move {worst['max_move_ms']:.0f} ms "
        f"(deal {worst['seed']}); mean wall {sum(r['wall_ms'] for r in results) / n:.0f} ms a game"
    )
    games_ms = sorted(r["cpu_ms"] for r in results)
    median, p99 = games_ms[n // 2], games_ms[min(n - 1, 99 * n // 100)]
    print(f"CPU a game: median {median:.0f} ms, p99 {p99:.0f} ms, {cpu / 1000:.0f} s in all")
    for key, said in (("moves_over_1s", "1 s"), ("moves_over_500ms", "0.5 s")):
        if all(key in r for r in results):  # (files written before these counts: not shown)
            slow = [r["seed"] for r in results if r[key]]
            print(
                f"moves over {said}: {sum(r[key] for r in results)}, in {len(slow)} games"
                f"{': ' + str(slow[:20]) if slow else ''}{' ...' if len(slow) > 20 else ''}"
            )
    if all("max_later_move_ms" in r for r in results):
        later = max(results, key=lambda r: r["max_later_move_ms"])
        print(
            f"slowest move with the stock known (after the first pass): "
            f"{later['max_later_move_ms']:.0f} ms (deal {later['seed']})"
        )
    if all("max_move_nodes" in r for r in results):
        top = max(results, key=lambda r: r["max_move_nodes"])
        print(f"most search nodes in a move: {top['max_move_nodes']} (deal {top['seed']})")
    lost = sorted(r["seed"] for r in results if not r["won"])
    print(f"lost: {lost}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="play seeds first..first+N-1")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--level", default="normal", help="easy, normal or hard")
    parser.add_argument("--out", help="append one JSON line per game to this file")
    parser.add_argument("--summary", help="summarise a file written by --out; play nothing")
    parser.add_argument(
        "--bot-key", type=int, help="derive bot seeds as `cardtable simulate --bot-key` does"
    )
    parser.add_argument(
        "--retime",
        metavar="SEEDS",
        help="e.g. 4282,5831: each deal's slowest move, played twice, and a hint there",
    )
    parser.add_argument(
        "--diagnose",
        metavar="SEEDS",
        help="e.g. 442,509,1-100: where each lost winnable deal went wrong",
    )
    args = parser.parse_args()
    if args.retime:
        retime(parse_seeds(args.retime), f"fair:{args.level}", args.bot_key)
        return
    if args.diagnose:
        diagnose(parse_seeds(args.diagnose), f"fair:{args.level}", args.bot_key)
        return
    if args.summary:
        with open(args.summary) as f:
            summary([json.loads(line) for line in f if line.strip()], "from " + args.summary)
        return
    tasks = [
        (s, f"fair:{args.level}", args.bot_key) for s in range(args.first, args.first + args.games)
    ]
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 - closed below
    results = []
    try:
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                records = pool.map(play, tasks, chunksize=2)
                for r in records:
                    results.append(r)
                    if out:
                        out.write(json.dumps(r) + "\n")
                        out.flush()
        else:
            for t in tasks:
                r = play(t)
                results.append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    summary(results, f"fair:{args.level}")


if __name__ == "__main__":
    main()
