"""Solve Doublets deals 1..N with the full-knowledge solver and print one table.

    python bench/doublets_solver.py [--deals 10000] [--jobs 2] [--budget NODES]

Columns: deals decided, winnable share with its 95 % Wilson interval, median / p99 / max
wall-clock milliseconds per deal (each deal timed alone, inside its worker) and their total;
then the same in CPU time, which a busy shared machine does not inflate.
"""

from __future__ import annotations

import argparse
import platform
import time

from rich.console import Console
from rich.table import Table

from cardtable.solvers.batch import run, summarise


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="solve deals 1..N")
    parser.add_argument("--first", type=int, default=1, help="the first deal")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--budget", type=int, default=None, help="search nodes per deal")
    args = parser.parse_args()
    seeds = list(range(args.first, args.first + args.deals))
    start = time.perf_counter()
    results = run("doublets", seeds, args.jobs, args.budget)
    wall = time.perf_counter() - start
    s = summarise(results)
    ms = sorted(r["ms"] for r in results)
    cpu = sorted(r["cpu_ms"] for r in results)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    cpu99 = cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))]
    low, high = s["winnable_ci95"]
    table = Table(
        "deals",
        "decided",
        "won",
        "winnable (95 % CI)",
        "median ms",
        "p99 ms",
        "max ms",
        "total s",
        title=f"Doublets solver, deals {seeds[0]}..{seeds[-1]}",
    )
    table.add_row(
        str(s["deals"]),
        str(s["decided"]),
        str(s["won"]),
        f"{100 * s['winnable']:.2f} % ({100 * low:.2f} - {100 * high:.2f})",
        f"{s['median_ms']:.2f}",
        f"{p99:.1f}",
        f"{s['max_ms']:.0f}",
        f"{s['total_s']:.1f}",
    )
    console = Console(width=120)
    console.print(table)
    console.print(
        f"CPU ms per deal: median {s['median_cpu_ms']:.2f}, p99 {cpu99:.1f}, "
        f"max {s['max_cpu_ms']:.0f}; total CPU {s['total_cpu_s']:.1f} s"
    )
    slow = sorted(results, key=lambda r: -r["cpu_ms"])[:5]
    console.print(
        "slowest (seed: CPU ms, nodes): "
        + ", ".join(f"{r['seed']}: {r['cpu_ms']:.0f}, {r['nodes']}" for r in slow)
    )
    lost = [r["seed"] for r in results if r["status"] == "lost"]
    unknown = [r["seed"] for r in results if r["status"] == "unknown"]
    console.print(f"lost deals: {lost}" if lost else "lost deals: none")
    if unknown:
        console.print(f"undecided (budget spent): {unknown}")
    console.print(f"wall {wall:.1f} s with {args.jobs} job(s); Python {platform.python_version()}")


if __name__ == "__main__":
    main()
