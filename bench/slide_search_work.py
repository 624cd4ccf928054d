"""Slide's search bot: its work cap, in counted units, against the CPU time a decision takes.

    python bench/slide_search_work.py [--games 4] [--players 4] [--level hard]

The search stops on counted work (rollouts times 1 + the cards face down when it starts:
``cardtable.bots.slide.search``), never on a clock, so that the same seed gives the same game
on any machine. This prints what a unit costs here, by how many cards are face down, and the
slowest decisions, so that the caps can be read as seconds of this machine: one ``search``
bot of the level in seat 0 against ``greedy:random-reveal`` in the others, deals 0 to N - 1.
"""

from __future__ import annotations

import argparse
import collections
import platform
import time

import cardtable.bots.slide.search as search
from cardtable import games
from cardtable.bots import make_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="hard", choices=list(search.SearchBot.LEVELS))
    args = parser.parse_args()
    rollouts = [0]
    rollout = search.rollout

    def counted(*a: object, **k: object) -> object:
        rollouts[0] += 1
        return rollout(*a, **k)  # type: ignore[arg-type]

    search.rollout = counted  # type: ignore[assignment]
    rules = games.get("slide")
    decisions = []  # (cpu seconds, rollouts, cards face down)
    for seed in range(args.games):
        state = rules.deal(seed, args.players)
        bots = [make_bot(f"search:{args.level}", "slide", 3)] + [
            make_bot("greedy:random-reveal", "slide", s) for s in range(1, args.players)
        ]
        while not state.over:
            seat = state.to_act()[0]
            legal = state.legal(seat)
            view = state.view(seat)
            if seat == 0 and len(legal) > 1:
                down = sum(1 for rows in view["grids"] for row in rows for c in row if c == "?")
                rollouts[0], start = 0, time.process_time()
                action = bots[0].choose(view, legal)
                if rollouts[0]:  # (a reveal chosen by rule searches nothing)
                    decisions.append((time.process_time() - start, rollouts[0], down))
            else:
                action = bots[seat].choose(view, legal)
            state.act(seat, action)
    units = sum(r * (1 + d) for _, r, d in decisions)
    cpu = sum(t for t, _, _ in decisions)
    work = search.SearchBot.LEVELS[args.level]["work"]
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, "
        f"{args.games} games of {args.players}, search:{args.level} (cap {work} units)"
    )
    print(
        f"{len(decisions)} decisions, {cpu / units * 1000:.3f} ms a unit, "
        f"the cap about {work * cpu / units:.2f} s here"
    )
    by = collections.defaultdict(list)
    for t, r, d in decisions:
        by[d // 8 * 8].append(t / (r * (1 + d)) * 1000)
    print("| cards face down | decisions | ms a unit |\n|---|---|---|")
    for down in sorted(by):
        print(f"| {down}-{down + 7} | {len(by[down])} | {sum(by[down]) / len(by[down]):.3f} |")
    slowest = sorted(decisions, reverse=True)[:3]
    print("slowest:", ", ".join(f"{t:.2f} s ({r} rollouts, {d} face down)" for t, r, d in slowest))


if __name__ == "__main__":
    main()
