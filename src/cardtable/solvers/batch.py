"""Many deals solved with full knowledge, for ``cardtable solve GAME --seeds 1-10000``.

The solvers peek at the hidden cards (a study tool, not a player); this module runs one over a
list of deal seeds, on one core or a process pool, and summarises how many are winnable.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable.stats import wilson

#: game -> ``"module:function"`` solving a deal from its seed: ``(seed, budget) -> Solution``
#: (``status`` "won", "lost" or "unknown", ``nodes``, ``seconds``, ``line`` or ``proof``)
DEAL_SOLVERS = {"doublets": "cardtable.solvers.doublets:solve_seed"}


def names() -> list[str]:
    """The games whose deals can be solved, sorted."""
    return sorted(DEAL_SOLVERS)


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
            raise ValueError(
                f"{part!r}: write seeds as ranges and numbers, like 1-100,200"
            ) from None
    if not seeds:
        raise ValueError("no seeds given")
    return seeds


def _solver(game: str) -> Callable[[int, int | None], Any]:
    if game not in DEAL_SOLVERS:
        raise ValueError(f"there is no solver for {game!r} (only: {', '.join(names())})")
    module, _, function = DEAL_SOLVERS[game].partition(":")
    return getattr(importlib.import_module(module), function)


def solve_one(args: tuple[str, int, int | None]) -> dict[str, Any]:
    """Solve one deal (a process-pool worker): a JSON-ready record."""
    game, seed, budget = args
    solve_seed = _solver(game)
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


def run(game: str, seeds: list[int], jobs: int = 1, budget: int | None = None,
        on_done: Callable[[], None] | None = None) -> list[dict[str, Any]]:
    """Solve the deals ``seeds`` of ``game``; results in seed order, identical whatever
    ``jobs`` is. ``on_done()`` is called as each deal is solved (for a progress bar)."""
    _solver(game)  # refuse a game without a solver before any work
    tasks = [(game, s, budget) for s in seeds]
    results: list[dict[str, Any]] = []
    if jobs <= 1:
        for t in tasks:
            results.append(solve_one(t))
            if on_done:
                on_done()
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # small chunks: a hard deal must not hold up a long run of easy ones behind it
        for record in pool.map(solve_one, tasks, chunksize=4):
            results.append(record)
            if on_done:
                on_done()
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
