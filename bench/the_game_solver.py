"""The Game with full knowledge: the winnable share of deals per player count.

    python bench/the_game_solver.py [--players 1,2,3,4,5] [--seeds 1-1000] [--budget 20000]
                                    [--save 'solve_{players}.json' | --from 'solve_{players}.json']

Each deal (seed, standard rules, seat 0 first) is solved by ``cardtable.solvers.the_game``
(it peeks: every hand and the draw order known) through ``cardtable.solvers.batch``, the code
behind ``cardtable solve the-game --players N --seeds A-B --budget NODES --json``; ``--from``
reads files that command printed instead of solving (``--save`` writes them). Per count: deals
won, lost and undecided (budget spent), the winnable share of the decided deals with its 95 %
Wilson interval, the share of all deals with the undecided counted both ways (Wilson low bound
with every undecided deal lost, high bound with every one won), and the processor time per
deal (median, p99, max, total).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from cardtable.solvers import batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="1,2,3,4,5")
    parser.add_argument("--seeds", default="1-1000")
    parser.add_argument("--budget", type=int, default=20000, help="positions per deal")
    parser.add_argument("--save", default=None, help="write the JSON per count ({players})")
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        help="read `cardtable solve --json` output per count ({players})",
    )
    args = parser.parse_args()
    seeds = batch.parse_seeds(args.seeds)
    print(f"seeds {args.seeds}, standard rules, seat 0 first")
    print(
        "| players | budget | won | lost | undecided | winnable of decided (95% CI) "
        "| winnable of all, undecided both ways | CPU ms/deal median | p99 | max | total s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for players in (int(x) for x in args.players.split(",")):
        data: dict[str, Any]
        if args.source:
            with open(args.source.format(players=players)) as f:
                data = json.load(f)
            if data["players"] != players or [d["seed"] for d in data["deals"]] != seeds:
                raise SystemExit(f"{args.source.format(players=players)}: not these deals")
            budget = data["budget"]
        else:
            budget = args.budget
            deals = batch.run("the-game", seeds, 1, budget, players=players)
            data = {
                "game": "the-game",
                "players": players,
                "budget": budget,
                "summary": batch.summarise(deals),
                "deals": deals,
            }
            if args.save:
                with open(args.save.format(players=players), "w") as f:
                    json.dump(data, f)
        s = batch.summarise(data["deals"])
        share = s["winnable"]
        low, high = s["winnable_ci95"]
        all_low, all_high = s["winnable_bounds"]
        shown = "-" if share is None else f"{100 * share:.1f} ({100 * low:.1f}-{100 * high:.1f})"
        print(
            f"| {players} | {budget} | {s['won']} | {s['lost']} | {s['unknown']} | {shown} "
            f"| {100 * all_low:.1f}-{100 * all_high:.1f} % | {s['median_cpu_ms']:.0f} "
            f"| {s['p99_cpu_ms']:.0f} | {s['max_cpu_ms']:.0f} | {s['total_cpu_s']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
