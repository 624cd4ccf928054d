"""Study the fair Doublets bot's first-pass choices against the truth (this script PEEKS).

    python bench/doublets_choices.py --first 20001 --games 400 [--level normal] --out FILE
    python bench/doublets_choices.py --summary FILE

Plays the bot (from views, as always) and, at each first-pass choice between a play and a flip,
asks the solver on the TRUE state whether each action still wins (300,000 nodes; undecided is
shown as '?'). A choice is *critical* when exactly one action wins; a *mistake* is a critical
choice the bot got wrong. One JSON line per game (``--out``); ``--summary`` prints the counts
by kind of play (waste or reserve) and stock size, the bot's mistakes and its slowest moves.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.doublets.fair import _after
from cardtable.games.doublets import DoubletsState
from cardtable.solvers.doublets import position_from_state, solve_position


def truth(state: DoubletsState, action: str, budget: int = 300_000) -> bool | None:
    """Does ``action`` keep the deal winnable? (peeks: the true stock)"""
    status = solve_position(_after(position_from_state(state), action), budget)[0]
    return {"won": True, "lost": False}.get(status)


def study(seed: int, spec: str) -> dict:
    state = games.get("doublets").deal(seed)
    assert isinstance(state, DoubletsState)
    bot = make_bot(spec, "doublets", seed)
    rows, cpu, slowest, move = [], 0.0, (0.0, ""), 0
    while not state.over:
        legal, view = state.legal(0), state.view(0)
        t = time.process_time()
        action, reason = bot.decide(view, legal)  # type: ignore[attr-defined]
        t = time.process_time() - t
        cpu, slowest, move = cpu + t, max(slowest, (t, reason)), move + 1
        plays = [a for a in legal if a.startswith("play")]
        if plays and "flip" in legal and bot.order is None:  # type: ignore[attr-defined]
            rows.append(
                {
                    "move": move,
                    "stock": view["stock"],
                    "kind": "waste" if plays[0] == "play waste" else "reserve",
                    "action": action,
                    "reason": reason,
                    "play_wins": truth(state, plays[0]),
                    "flip_wins": truth(state, "flip"),
                    "ms": round(1000 * t, 1),
                }
            )
        state.act(0, action)
    return {
        "seed": seed,
        "won": state.won,
        "cpu_s": round(cpu, 3),
        "slowest_s": round(slowest[0], 3),
        "slowest_reason": slowest[1],
        "choices": rows,
    }


def summary(records: list[dict]) -> None:
    n = len(records)
    cpu = sum(r["cpu_s"] for r in records) / n
    print(
        f"{n} games ({min(r['seed'] for r in records)}..{max(r['seed'] for r in records)}): "
        f"won {sum(r['won'] for r in records)}; bot CPU {cpu:.3f}"
        f" s a game; slowest move {max(r['slowest_s'] for r in records):.2f} s; "
        f"{sum(r['slowest_s'] > 1 for r in records)} games with a move over 1 s"
    )
    mark = {True: "wins", False: "loses", None: "?"}
    counts: Counter = Counter()
    mistakes = []
    for r in records:
        for c in r["choices"]:
            band = (
                "stock>=15" if c["stock"] >= 15 else "stock 6-14" if c["stock"] >= 6 else "stock<6"
            )
            counts[
                (
                    c["kind"],
                    band,
                    f"play {mark[c['play_wins']]}",
                    f"flip {mark[c['flip_wins']]}",
                    c["action"].split()[0],
                )
            ] += 1
            took_play = c["action"].startswith("play")
            if (c["play_wins"], c["flip_wins"]) == ((False, True) if took_play else (True, False)):
                mistakes.append((r["seed"], c["move"], c["action"], c["stock"], c["reason"]))
    for key in sorted(counts):
        print("  " + " | ".join(key) + f": {counts[key]}")
    print(f"mistakes: {len(mistakes)}")
    for m in mistakes:
        print(f"  deal {m[0]} move {m[1]}: {m[2]} with {m[3]} in the stock ({m[4]})")
    print(f"lost: {sorted(r['seed'] for r in records if not r['won'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=20001)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--out", help="append one JSON line per game")
    parser.add_argument("--summary", help="summarise a file written by --out; play nothing")
    args = parser.parse_args()
    if args.summary:
        with open(args.summary) as f:
            summary([json.loads(line) for line in f if line.strip()])
        return
    records = []
    with open(args.out or "/dev/null", "a") as out:
        for seed in range(args.first, args.first + args.games):
            records.append(study(seed, f"fair:{args.level}"))
            out.write(json.dumps(records[-1]) + "\n")
            out.flush()
    summary(records)


if __name__ == "__main__":
    main()
