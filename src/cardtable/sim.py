"""Seeded simulations: many games with bots in one process, and their summary.

Game ``i`` of a run with ``seed`` uses the deal seed ``seed + i``; a bot at seat ``s`` gets the
random seed ``(seed + i) * 16 + s``. The same arguments always give the same numbers.

When every seat is a built-in bot, games go through ``State.playout`` (the fast path);
``fast=False`` plays them through ``view``/``legal``/``act`` instead. Greedy bots play the same
moves on both paths; random bots draw differently, so their figures differ slightly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from cardtable import bots as bot_registry
from cardtable import games
from cardtable.core.protocol import State


@dataclass
class GameOutcome:
    seed: int
    scores: list[int]
    winners: list[int]
    won: bool | None


def play_one(state: State, seat_bots: list[Any]) -> None:
    """Play ``state`` to the end, each seat asking its bot with its own view.

    After every action, bots of the other seats that can ``react`` may answer with talk
    (once per action: reactions are not themselves reacted to). At the end every bot is told
    the result (``finish``) and closed (``close``), whatever happened.
    """
    talk = state.game.is_talk
    reactors = [(s, b) for s, b in enumerate(seat_bots) if hasattr(b, "react")]
    try:
        while not state.over:
            for seat in state.to_act():
                if state.over or seat not in state.to_act():
                    continue
                state.act(seat, seat_bots[seat].choose(state.view(seat), state.legal(seat)))
                for other, bot in reactors:
                    if other == seat or state.over:
                        continue
                    options = [a for a in state.legal(other) if talk(a)]
                    if options and (said := bot.react(state.view(other), options)):
                        state.act(other, said)
        result = state.result()
        for bot in seat_bots:
            if hasattr(bot, "finish"):
                bot.finish(result)
    finally:
        for bot in seat_bots:
            if hasattr(bot, "close"):
                bot.close()


def run_games(
    game: str,
    players: int,
    bot_names: list[str],
    count: int,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    fast: bool = True,
    on_game: Callable[[int], None] | None = None,
) -> Iterator[GameOutcome]:
    """Yield the outcome of each of ``count`` seeded games."""
    rules = games.get(game)
    options = options or {}
    if len(bot_names) == 1:
        bot_names = bot_names * players
    if len(bot_names) != players:
        raise ValueError(f"give one bot, or one per seat ({players}), not {len(bot_names)}")
    for name in bot_names:
        bot_registry.make_bot(name, game)  # refuses an unknown bot before the run starts
    use_fast = fast and all(n in State.playout_policies for n in bot_names)
    for i in range(count):
        deal_seed = seed + i
        state = rules.deal(deal_seed, players, **options)
        if use_fast:
            state.playout(bot_names, random.Random(deal_seed))
        else:
            seat_bots = [
                bot_registry.make_bot(n, game, deal_seed * 16 + s) for s, n in enumerate(bot_names)
            ]
            play_one(state, seat_bots)
        result = state.result()
        if on_game:
            on_game(i)
        yield GameOutcome(deal_seed, result["scores"], result["winners"], result.get("won"))


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def summarize(
    game: str, players: int, bot_names: list[str], outcomes: list[GameOutcome], seed: int,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Win rates and mean scores per seat and per bot, with 95 % confidence intervals."""
    if len(bot_names) == 1:
        bot_names = bot_names * players
    n = len(outcomes)
    seats = []
    for s in range(players):
        wins = [1.0 if s in o.winners else 0.0 for o in outcomes]
        scores = [float(o.scores[s]) for o in outcomes]
        win, win_ci = mean_ci(wins)
        score, score_ci = mean_ci(scores)
        seats.append({"seat": s, "bot": bot_names[s], "win_rate": win, "win_rate_ci": win_ci,
                      "mean_score": score, "mean_score_ci": score_ci})
    by_bot: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(bot_names):
        mine = [s for s in range(players) if bot_names[s] == name]
        wins = [1.0 if s in o.winners else 0.0 for o in outcomes for s in mine]
        scores = [float(o.scores[s]) for o in outcomes for s in mine]
        win, win_ci = mean_ci(wins)
        score, score_ci = mean_ci(scores)
        by_bot[name] = {"seats": mine, "win_rate": win, "win_rate_ci": win_ci,
                        "mean_score": score, "mean_score_ci": score_ci}
    summary: dict[str, Any] = {
        "game": game, "players": players, "bots": bot_names, "games": n, "seed": seed,
        "options": options or {}, "better": games.get(game).better,
        "seats": seats, "by_bot": by_bot,
    }
    if outcomes and outcomes[0].won is not None:  # solitaire and cooperative games
        won, won_ci = mean_ci([1.0 if o.won else 0.0 for o in outcomes])
        summary["won"] = won
        summary["won_ci"] = won_ci
    return summary


def simulate(
    game: str, players: int, bot_names: list[str], count: int, seed: int = 1,
    options: dict[str, Any] | None = None, fast: bool = True,
    on_game: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    outcomes = list(run_games(game, players, bot_names, count, seed, options, fast, on_game))
    return summarize(game, players, bot_names, outcomes, seed, options)
