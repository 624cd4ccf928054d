"""Many deals solved with full knowledge, for ``cardtable solve GAME --seeds 1-10000``.

The solvers peek at the hidden cards (a study tool, not a player); this module runs one over a
list of deal seeds, on one core or a process pool, and summarises how many are winnable. A game
offers its deal solver as ``Game.deal_solver`` (registered in ``cardtable.deal_solvers``, called as
``(seed, budget, players)``); this module names no game.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable import games
from cardtable.stats import wilson


def names() -> list[str]:
    """The games whose deals can be solved (their ``deal_solver``), sorted."""
    return sorted(n for n in games.names() if games.get(n).deal_solver)


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


def _solver(game: str) -> Callable[[int, int | None, int], Any]:
    solver = games.get(game).deal_solver if game in games.names() else None
    if solver is None:
        raise ValueError(f"there is no solver for {game!r} (only: {', '.join(names())})")
    return solver


def players_for(game: str, players: int | None) -> int:
    """The player count to solve ``game``'s deals for: ``players``, checked against the game's
    counts, or the game's smallest count when None (a solitaire ignores the argument)."""
    rules = games.get(game)
    if players is None:
        return rules.min_players
    if not rules.min_players <= players <= rules.max_players:
        if rules.max_players == 1:
            raise ValueError(f"{rules.title} is played alone, not by {players}")
        raise ValueError(
            f"{rules.title} is for {rules.min_players} to {rules.max_players} "
            f"players, not {players}"
        )
    return players


def solve_one(args: tuple[str, int, int | None, int]) -> dict[str, Any]:
    """Solve one deal (a process-pool worker): a JSON-ready record."""
    game, seed, budget, players = args
    solve_seed = _solver(game)
    cpu = time.process_time()
    sol = solve_seed(seed, budget, players)
    cpu = time.process_time() - cpu
    out: dict[str, Any] = {
        "seed": seed,
        "players": players,
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


def run(
    game: str,
    seeds: list[int],
    jobs: int = 1,
    budget: int | None = None,
    on_done: Callable[[], None] | None = None,
    players: int | None = None,
) -> list[dict[str, Any]]:
    """Solve the deals ``seeds`` of ``game`` for ``players`` (see ``players_for``); results in
    seed order, identical whatever ``jobs`` is. ``on_done()`` is called as each deal is
    solved (for a progress bar)."""
    _solver(game)  # refuse a game without a solver before any work
    count = players_for(game, players)
    tasks = [(game, s, budget, count) for s in seeds]
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


def _p99(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Deals decided, winnable share with its 95 % Wilson interval, ms per deal.

    ``winnable_bounds``: the share of all deals with the undecided counted both ways, from
    the Wilson low bound with every undecided deal lost to the high bound with every one won.
    """
    won = sum(r["status"] == "won" for r in results)
    lost = sum(r["status"] == "lost" for r in results)
    decided = won + lost
    low, high = wilson(won, decided)
    unknown = len(results) - decided
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
        "winnable_bounds": [wilson(won, len(results))[0], wilson(won + unknown, len(results))[1]],
        "median_ms": statistics.median(ms) if ms else None,
        "max_ms": max(ms) if ms else None,
        "total_s": sum(ms) / 1000,
        "median_cpu_ms": statistics.median(cpu) if cpu else None,
        "p99_cpu_ms": _p99(cpu),
        "max_cpu_ms": max(cpu) if cpu else None,
        "total_cpu_s": sum(cpu) / 1000,
    }
