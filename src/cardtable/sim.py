"""Seeded simulations: many games between bots, on one core, many, or a Dask cluster.

A run is a list of ``Task``s, one game each. Game ``i`` of a run with ``seed`` is dealt from
``seed + i``; the bot at seat ``s`` gets the random seed ``seeds.bot_seed(bot_key, seed + i,
s)``, where the run's ``bot_key`` is secret unless given: a bot's seed says nothing about its
deal (a bot that could work the deal out from its seed would see every hidden card), and the
summary names the key, so a run repeats exactly with ``bot_key``. Every task is independent, so
the same tasks give the same outcomes on one process, a pool (``jobs``) or a cluster
(``dask``), in the same order.

When every seat is a built-in bot with a fast policy, games go through ``State.playout``;
``fast=False`` plays them through ``view``/``legal``/``act``. Greedy bots play the same moves on
both paths; random bots draw differently, so their figures differ slightly.

A bot that fails (``BotError``, or an action the rules refuse) ends its game with an error;
the run goes on and the summary reports it.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cardtable import bots as bot_registry
from cardtable import games
from cardtable.bots import lifecycle
from cardtable.core.errors import CardtableError
from cardtable.core.protocol import State
from cardtable.core.rng import check_seed
from cardtable.seeds import bot_seed, new_key
from cardtable.stats import mean_ci, wilson


@dataclass(frozen=True)
class Task:
    """One game to play: everything a worker process needs, picklable."""

    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    fast: bool = True
    timeout: float = 5.0  # for external bots
    #: the run's secret key for the bots' random seeds (``seeds.bot_seed``)
    bot_key: int = 0


@dataclass
class GameOutcome:
    seed: int
    bots: list[str]
    scores: list[int] | None
    winners: list[int]
    won: bool | None = None
    ranks: list[int] | None = None
    moves: int = 0
    error: str | None = None


def play_one(state: State, seat_bots: list[Any]) -> None:
    """Play ``state`` to the end, each seat asking its bot with its own view, through the one
    bot lifecycle (``bots.lifecycle``): talk after each action, ``finish`` at the end, every
    bot closed whatever happened."""
    lifecycle.play_out(state, lifecycle.BotSeats(dict(enumerate(seat_bots))))


def play_task(task: Task) -> GameOutcome:
    """Play one task to the end and describe how it went (never raises for a bot's fault)."""
    rules = games.get(task.game)
    state = rules.deal(task.seed, task.players, task.options)
    bots = list(task.bots)
    try:
        if task.fast and all(b in state.playout_policies for b in bots):
            state.playout(bots, random.Random(bot_seed(task.bot_key, task.seed, "playout")))
        else:
            timeout = {"timeout": task.timeout}
            seat_bots = list(
                lifecycle.build(
                    dict(enumerate(bots)),
                    task.game,
                    lambda s: bot_seed(task.bot_key, task.seed, s),
                    lambda s, _spec: {
                        "seat": s,
                        "players": task.players,
                        "options": task.options,
                        **timeout,
                    },
                ).values()
            )
            play_one(state, seat_bots)
    except CardtableError as e:  # a bot failed or chose an illegal action: this game ends
        return GameOutcome(
            task.seed, bots, None, [], moves=len(state.actions), error=f"game {task.seed}: {e}"
        )
    result = state.result()
    return GameOutcome(
        task.seed,
        bots,
        list(result["scores"]),
        list(result["winners"]),
        result.get("won"),
        list(result["ranks"]),
        len(state.actions),
    )


def play_chunk(tasks: Sequence[Task]) -> list[GameOutcome]:
    return [play_task(t) for t in tasks]


def make_tasks(
    game: str,
    players: int,
    bot_specs: Sequence[str],
    count: int,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    fast: bool = True,
    timeout: float = 5.0,
    bot_key: int | None = None,
) -> list[Task]:
    """``count`` games with the same bots, one spec per seat (or one for every seat).

    ``bot_key``: the key of the bots' random seeds; a fresh secret one if not given."""
    rules = games.get(game)
    specs = list(bot_specs)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"give one bot, or one per seat ({players}), not {len(specs)}")
    rules.deal(seed, players, options or {})  # refuse bad options before the run
    for spec in dict.fromkeys(specs):  # refuse an unknown bot or a broken command before the run
        if bot_registry.is_external(spec):
            from cardtable.bots.external import check_spec

            check_spec(spec)
        else:
            bot_registry.make_bot(spec, game)
    key = new_key() if bot_key is None else check_seed(bot_key)
    return [
        Task(game, players, tuple(specs), seed + i, dict(options or {}), fast, timeout, key)
        for i in range(count)
    ]


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_tasks(
    tasks: Sequence[Task],
    jobs: int = 1,
    dask: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> Iterator[GameOutcome]:
    """Yield each task's outcome, in task order, wherever the games are played.

    ``jobs`` > 1: a local process pool; ``dask``: the address of a Dask scheduler.
    ``on_done(n)`` is called as each batch of ``n`` games finishes (for a progress bar).
    """
    tasks = list(tasks)
    if dask:
        yield from _run_dask(tasks, dask, on_done)
        return
    if jobs <= 1 or len(tasks) < 2:
        for task in tasks:
            outcome = play_task(task)
            if on_done:
                on_done(1)
            yield outcome
        return
    from concurrent.futures import ProcessPoolExecutor

    size = max(1, min(200, len(tasks) // (jobs * 8)))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for batch in pool.map(play_chunk, chunks):
            if on_done:
                on_done(len(batch))
            yield from batch


def _run_dask(
    tasks: list[Task], address: str, on_done: Callable[[int], None] | None
) -> Iterator[GameOutcome]:
    try:
        from distributed import Client
    except ImportError:
        raise CardtableError("--dask needs the dask extra: pip install 'cardtable[dask]'") from None
    size = max(1, min(500, len(tasks) // 64 or 1))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
    with Client(address) as client:
        futures = client.map(play_chunk, chunks, pure=False)
        for future in futures:  # in order, so outcomes come out as on one core
            batch = future.result()
            if on_done:
                on_done(len(batch))
            yield from batch


# -- summaries ------------------------------------------------------------------------------
def _figures(picks: Sequence[tuple[GameOutcome, int]]) -> dict[str, Any]:
    """For (game, seat) picks of finished games: the win rate with its Wilson interval, the
    mean score with its interval, the mean rank; ``None`` for the figures of no games."""
    rows = [
        (s in o.winners, float(o.scores[s]), float(o.ranks[s]))
        for o, s in picks
        if o.scores is not None and o.ranks is not None
    ]
    n = len(rows)
    if n == 0:
        return {
            "games": 0,
            "win_rate": None,
            "win_rate_ci95": list(wilson(0, 0)),
            "mean_score": None,
            "mean_score_ci95": None,
            "mean_rank": None,
        }
    wins = sum(won for won, _, _ in rows)
    score, low, high = mean_ci([score for _, score, _ in rows])
    return {
        "games": n,
        "win_rate": wins / n,
        "win_rate_ci95": list(wilson(wins, n)),
        "mean_score": score,
        "mean_score_ci95": [low, high],
        "mean_rank": sum(rank for _, _, rank in rows) / n,
    }


def summarize(
    game: str,
    outcomes: Sequence[GameOutcome],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    bot_key: int | None = None,
) -> dict[str, Any]:
    """Win rates, mean scores and ranks per seat and per bot, with 95 % confidence intervals
    (``cardtable.stats``: Wilson for the rates, ``[low, high]`` in the ``*_ci95`` fields).

    A shared win counts as a win for every winner. Games that ended with an error are left
    out of the figures and listed under ``errors``.
    """
    done = [o for o in outcomes if o.error is None]
    failed = [o for o in outcomes if o.error is not None]
    players = len(outcomes[0].bots) if outcomes else 0
    seat_bots = outcomes[0].bots if outcomes else []
    fixed_seats = all(o.bots == seat_bots for o in outcomes)
    seats = []
    if fixed_seats:
        for s in range(players):
            figures = _figures([(o, s) for o in done])
            seats.append({"seat": s, "bot": seat_bots[s], **figures})
    by_bot: dict[str, dict[str, Any]] = {}
    names = list(dict.fromkeys(b for o in outcomes for b in o.bots))
    rules = games.get(game)
    for name in names:
        picks = [(o, s) for o in done for s, b in enumerate(o.bots) if b == name]
        if rules.cooperative:  # one shared result a game: count each game once
            picks = list({id(o): (o, s) for o, s in picks}.values())
        by_bot[name] = _figures(picks)
    summary: dict[str, Any] = {
        "game": game,
        "players": players,
        "bots": seat_bots if fixed_seats else names,
        "games": len(outcomes),
        "seed": seed,
        "bot_key": bot_key,
        "options": options or {},
        "better": rules.better,
        "seats": seats,
        "by_bot": by_bot,
        "errors": len(failed),
        "error_messages": [o.error for o in failed[:10]],
    }
    if rules.cooperative:
        won = sum(1 for o in done if o.won)
        summary["won"] = won / len(done) if done else None
        summary["won_ci95"] = list(wilson(won, len(done)))
    return summary


def simulate(
    game: str,
    players: int,
    bot_specs: Sequence[str],
    count: int,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    fast: bool = True,
    jobs: int = 1,
    dask: str | None = None,
    bot_key: int | None = None,
) -> dict[str, Any]:
    """Play ``count`` seeded games and return their summary."""
    tasks = make_tasks(game, players, bot_specs, count, seed, options, fast, bot_key=bot_key)
    return summarize(
        game,
        list(run_tasks(tasks, jobs, dask)),
        seed,
        options,
        tasks[0].bot_key if tasks else bot_key,
    )


# -- tournaments ----------------------------------------------------------------------------
def tournament_tasks(
    game: str,
    players: int,
    bot_specs: Sequence[str],
    count: int,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    fast: bool = True,
    bot_key: int | None = None,
) -> list[Task]:
    """Every bot over the same seeds (and the same bot seeds: one key for the run).
    Competitive games: each table of ``players`` bots (every combination, or the bots repeated
    when there are fewer than seats) in every seat rotation. Cooperative games and solitaires:
    each bot in all seats."""
    specs = list(dict.fromkeys(bot_specs))
    if games.get(game).cooperative:
        lineups = [[b] * players for b in specs]
    else:
        if len(specs) >= players:
            tables = [list(t) for t in itertools.combinations(specs, players)]
        else:
            tables = [list(itertools.islice(itertools.cycle(specs), players))]
        lineups = []
        for table in tables:
            for r in range(players):
                rotated = table[r:] + table[:r]
                if rotated not in lineups:
                    lineups.append(rotated)
    key = new_key() if bot_key is None else bot_key
    tasks = []
    for lineup in lineups:
        tasks += make_tasks(game, players, lineup, count, seed, options, fast, bot_key=key)
    return tasks


# -- output ---------------------------------------------------------------------------------
ROW_FIELDS = ["seed", "bots", "scores", "winners", "won", "ranks", "moves", "error"]


def write_rows(outcomes: Iterable[GameOutcome], path: Path) -> None:
    """One row per game: JSON lines (``.jsonl``/``.json``) or CSV (``.csv``)."""
    path = Path(path)
    if path.suffix == ".csv":
        with path.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(ROW_FIELDS)
            for o in outcomes:
                row = asdict(o)
                writer.writerow(
                    [
                        " ".join(map(str, row[k]))
                        if isinstance(row[k], list)
                        else ""
                        if row[k] is None
                        else row[k]
                        for k in ROW_FIELDS
                    ]
                )
    elif path.suffix in (".jsonl", ".json", ".ndjson"):
        with path.open("w") as f:
            for o in outcomes:
                f.write(json.dumps(asdict(o)) + "\n")
    else:
        raise CardtableError(f"write results to a .csv or .jsonl file, not {path.name}")


def plot_scores(outcomes: Sequence[GameOutcome], game: str, path: Path) -> None:
    """Score distributions per bot, as a PNG (matplotlib)."""
    try:
        import matplotlib
    except ImportError:
        raise CardtableError("--plot needs matplotlib: pip install 'cardtable[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per_bot: dict[str, list[int]] = {}
    for o in outcomes:
        if o.scores is not None:  # a game that ended with an error has none
            for s, bot in enumerate(o.bots):
                per_bot.setdefault(bot, []).append(o.scores[s])
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    lo = min((min(v) for v in per_bot.values()), default=0)
    hi = max((max(v) for v in per_bot.values()), default=1)
    bins = range(lo, hi + 2, max(1, (hi - lo + 1) // 40 or 1))
    for bot, scores in per_bot.items():
        ax.hist(scores, bins=bins, alpha=0.55, label=f"{bot} (n={len(scores)})")
    better = "lower" if games.get(game).better == "low" else "higher"
    ax.set_xlabel(f"score ({better} is better)")
    ax.set_ylabel("seats")
    ax.set_title(f"{games.get(game).title}: score per seat, by bot")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
