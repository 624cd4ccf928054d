"""``cardtable solve doublets --seeds 1-10000 [--jobs N] [--json] [--budget NODES]``.

Solves deals with full knowledge (the solver peeks at the stock: a study tool, not a player)
and summarises how many are winnable.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

SOLVABLE = ("doublets",)


def parse_seeds(text: str) -> list[int]:
    """``"1-100,200"`` -> ``[1, ..., 100, 200]``: ranges and single seeds, comma separated."""
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        low, sep, high = part.partition("-")
        try:
            if sep:
                a, b = int(low), int(high)
                if b < a:
                    raise ValueError
                seeds.extend(range(a, b + 1))
            else:
                seeds.append(int(part))
        except ValueError:
            raise typer.BadParameter(
                f"{part!r}: write seeds as ranges and numbers, like 1-100,200"
            ) from None
    if not seeds:
        raise typer.BadParameter("no seeds given")
    return seeds


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a share ``successes / n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def solve_one(args: tuple[int, int | None]) -> dict[str, Any]:
    """Solve one deal (a process-pool worker): a JSON-ready record."""
    from cardtable.solvers.doublets import solve_seed

    seed, budget = args
    cpu = time.process_time()
    sol = solve_seed(seed, budget)
    cpu = time.process_time() - cpu
    out: dict[str, Any] = {
        "seed": seed,
        "status": sol.status,
        "nodes": sol.nodes,
        "ms": round(1000 * sol.seconds, 3),
        # CPU time too: on a shared machine the wall clock also counts other programs' turns
        "cpu_ms": round(1000 * cpu, 3),
    }
    if sol.status == "won":
        out["line"] = sol.line
    else:
        out["proof"] = sol.proof
    return out


def run(seeds: list[int], jobs: int = 1, budget: int | None = None,
        progress: Progress | None = None) -> list[dict[str, Any]]:
    """Solve ``seeds``; results in seed order, identical whatever ``jobs`` is."""
    tasks = [(s, budget) for s in seeds]
    task_id = progress.add_task("solving", total=len(tasks)) if progress else None
    results: list[dict[str, Any]] = []
    if jobs <= 1:
        for t in tasks:
            results.append(solve_one(t))
            if progress:
                progress.advance(task_id)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # small chunks: a hard deal must not hold up a long run of easy ones behind it
        for record in pool.map(solve_one, tasks, chunksize=4):
            results.append(record)
            if progress:
                progress.advance(task_id)
    return results


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Deals decided, winnable share with its 95 % Wilson interval, ms per deal."""
    won = sum(r["status"] == "won" for r in results)
    lost = sum(r["status"] == "lost" for r in results)
    decided = won + lost
    low, high = wilson(won, decided)
    ms = [r["ms"] for r in results]
    cpu = [r["cpu_ms"] for r in results]
    return {
        "deals": len(results),
        "decided": decided,
        "won": won,
        "lost": lost,
        "unknown": len(results) - decided,
        "winnable": won / decided if decided else None,
        "winnable_ci95": [low, high],
        "median_ms": statistics.median(ms) if ms else None,
        "max_ms": max(ms) if ms else None,
        "total_s": sum(ms) / 1000,
        "median_cpu_ms": statistics.median(cpu) if cpu else None,
        "max_cpu_ms": max(cpu) if cpu else None,
        "total_cpu_s": sum(cpu) / 1000,
    }


def solve_command(
    game: Annotated[str, typer.Argument(help="the game to solve: doublets")],
    seeds: Annotated[str, typer.Option(help="deals, as ranges and numbers: 1-100,200")] = "1-100",
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON, winning lines too")] = False,
    budget: Annotated[
        int | None, typer.Option(help="search nodes per deal; over it a deal is 'unknown'")
    ] = None,
) -> None:
    """Solve deals with full knowledge (the solver sees the stock) and count the winnable ones."""
    console = Console()
    if game not in SOLVABLE:
        console.print(f"[red]error:[/red] there is no solver for {game!r} (only: doublets)")
        raise typer.Exit(2)
    if jobs < 1:
        raise typer.BadParameter("--jobs must be at least 1")
    seed_list = parse_seeds(seeds)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as progress:
        results = run(seed_list, jobs, budget, progress)
    summary = summarise(results)
    if as_json:
        print(json.dumps({"game": game, "summary": summary, "deals": results}))
        return
    for r in results:
        extra = f"{r['nodes']} nodes, {r['ms']:.1f} ms"
        console.print(f"deal {r['seed']}: {r['status']} ({extra})", highlight=False)
    share = summary["winnable"]
    low, high = summary["winnable_ci95"]
    console.print(
        f"decided {summary['decided']} of {summary['deals']} deals"
        + (f" ({summary['unknown']} unknown: budget spent)" if summary["unknown"] else ""),
        highlight=False,
    )
    if share is not None:
        console.print(
            f"winnable: {summary['won']} = {100 * share:.2f} % "
            f"(95 % CI {100 * low:.2f} - {100 * high:.2f} %)",
            highlight=False,
        )
    console.print(
        f"ms per deal: median {summary['median_ms']:.2f}, max {summary['max_ms']:.1f}; "
        f"total {summary['total_s']:.1f} s (CPU: median {summary['median_cpu_ms']:.2f}, "
        f"max {summary['max_cpu_ms']:.1f}, total {summary['total_cpu_s']:.1f} s)",
        highlight=False,
    )
