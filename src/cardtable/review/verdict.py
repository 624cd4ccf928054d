"""The verdict with every card known (it **peeks**): could the deal be won, and until when?

A separate, labelled answer beside the review (which judges each move from its seat's view):
the game's position solver (``Game.solver``) on the true positions of the game. Once a
position cannot be won no later one can, so a bisection over the game's positions finds the
first move after which the deal was lost with a handful of solves, and one more search names a
move that would have kept it winnable.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.protocol import Game, Record, State
from cardtable.core.words import wire

#: solver nodes per position the verdict asks about (None past it: "undecided")
VERDICT_BUDGET = 2_000_000


def _positions(game: Game, record: Record) -> list[State]:
    """The game's true position before each action, and after the last."""
    state = game.deal(record["seed"], record["players"], record["options"])
    out = [state.clone()]
    for seat, action in record["actions"]:
        state.act(seat, action)
        out.append(state.clone())
    return out


def verdict(game: Game, record: Record, budget: int | None = VERDICT_BUDGET) -> dict | None:
    """``{"peeking": True, "status": ...}`` for a game with a position solver, else None.

    ``status``: ``"won"`` (the game was won), ``"never"`` (the deal could not be won at all),
    ``"lost_at"`` (with ``step``, ``seat``, ``played`` and ``alternative``: the first action
    after which it could no longer be won, and one that would have kept it winnable; and
    ``reason``, why in words (``Game.loss_reason``, as ``wire`` sends words), or None) or
    ``"undecided"`` (the solver's budget ran out first).
    """
    solver = game.solver
    if solver is None:
        return None
    positions = _positions(game, record)
    talk = game.is_talk
    if positions[-1].result().get("winners"):
        return {"peeking": True, "status": "won"}
    cache: dict[int, bool | None] = {}

    def winnable(i: int) -> bool | None:
        if i not in cache:
            cache[i] = solver(positions[i].clone(), budget)
        return cache[i]

    start = winnable(0)
    if start is None:
        return {"peeking": True, "status": "undecided"}
    if start is False:
        return {"peeking": True, "status": "never"}
    lo, hi = 0, len(positions) - 1
    if winnable(hi) is not False:  # the end not proved lost (a resigned game, or undecided)
        return {"peeking": True, "status": "undecided"}
    while hi - lo > 1:  # winnable(lo) is True, winnable(hi) False
        mid = (lo + hi) // 2
        answer = winnable(mid)
        if answer is None:
            return {"peeking": True, "status": "undecided"}
        lo, hi = (mid, hi) if answer else (lo, mid)
    seat, played = record["actions"][lo]
    before = positions[lo]
    alternative = None
    for action in before.legal(seat):
        if action != played and not talk(action):
            trial = before.clone()
            trial.act(seat, action)
            if solver(trial, budget):
                alternative = action
                break
    explain = game.loss_reason
    reason = explain(before.clone(), seat, played, alternative) if explain else None
    found: dict[str, Any] = {"peeking": True, "status": "lost_at", "step": lo}
    found.update(seat=seat, played=played, alternative=alternative, reason=wire(reason))
    view = before.view(seat)  # the game is over: nothing it shows is secret any more
    found["labels"] = {
        "played": wire(game.move_label(view, played)),
        "alternative": wire(game.move_label(view, alternative)) if alternative else None,
    }
    return found
