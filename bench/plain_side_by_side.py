"""The plain path of two source trees side by side: rounds alternating between them.

    python bench/plain_side_by_side.py OLD_SRC [NEW_SRC] [--rounds 8]

Each round runs one process per tree (``PYTHONPATH`` on its ``src``), the old first, each
measuring with this directory's ``plain_path.py`` (``loop`` and ``readers``, 100 games a game)
and ``games_per_second.py`` (the plain column, 0.7 CPU s a figure). On a shared machine one
run's figures swing by a quarter; alternating rounds and taking the median (and the best) of
each tree keeps the comparison fair. Printed: per measure, each tree's median and best, and
how many times faster the new tree is by each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

ROUND = """
import json, sys
sys.path.insert(0, {here!r})
import games_per_second as gps
import plain_path as pp
out = {{}}
for name, players in pp.CASES:
    rec = pp.record(name, players, 100)
    out[f"loop {{name}} us"] = pp.together(name, players, rec, readers=False)
    out[f"readers {{name}} us"] = pp.together(name, players, rec, readers=True)
for name, players, policy, _target in gps.CASES:
    plain = gps.plain(name, players, policy)
    out[f"plain {{name}} {{players}} {{policy}} /s"] = gps.rate(plain, 0.7)
print(json.dumps(out))
"""


def one_round(src: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src}
    code = ROUND.format(here=str(HERE))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    done.check_returncode()
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the old tree's src directory")
    parser.add_argument("new", nargs="?", default=str(HERE.parent / "src"))
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    old: list[dict[str, float]] = []
    new: list[dict[str, float]] = []
    for _ in range(args.rounds):
        old.append(one_round(args.old))
        new.append(one_round(args.new))
    print(
        f"{'measure':<30} {'old median (best)':>20} {'new median (best)':>20} "
        f"{'x':>6} {'x best':>7}"
    )
    for key in old[0]:
        times = key.endswith(" us")  # lower is better; games per second: higher
        a, b = [r[key] for r in old], [r[key] for r in new]
        best_a, best_b = (min(a), min(b)) if times else (max(a), max(b))
        med_a, med_b = statistics.median(a), statistics.median(b)
        faster = med_a / med_b if times else med_b / med_a
        faster_best = best_a / best_b if times else best_b / best_a
        shape = ".2f" if times else ",.0f"
        print(
            f"{key:<30} {med_a:>10{shape}} ({best_a:>7{shape}}) {med_b:>10{shape}} "
            f"({best_b:>7{shape}}) {faster:>5.2f}x {faster_best:>6.2f}x"
        )
    print(f"{args.rounds} rounds, alternating, the old tree first")


if __name__ == "__main__":
    main()
