"""How a review scores one position sampled from a seat's view: play it to the end, or solve it.

A judge gets a full state (a sample: the seat's own cards as they are, everything it could not
see redrawn) and answers an ``Outcome`` for that seat. Which judge a game uses is the game's
choice (``Game.review_judge``); each is deterministic given its ``rng``, so a review repeats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from cardtable.bots import make_bot
from cardtable.core.protocol import Game, State

#: solver nodes per sample before a solver judge falls back to a playout
SOLVER_BUDGET = 200_000


class Outcome(NamedTuple):
    """One sample played out: whether the seat won (a shared win counts), its score in the
    game's measure and its place (None where the judge does not play the game out)."""

    won: bool
    score: int | None
    rank: int | None


Judge = Callable[[State, int, random.Random], Outcome]


def _finished(state: State, seat: int) -> Outcome:
    result = state.result()
    return Outcome(seat in result["winners"], result["scores"][seat], result["ranks"][seat])


def playout_judge(game: Game) -> Judge:
    """Every seat plays the game's own fast greedy playout (``State.playout``)."""

    def judge(state: State, seat: int, rng: random.Random) -> Outcome:
        policy = "greedy" if "greedy" in state.playout_policies else "random"
        state.playout([policy] * state.players, rng)
        return _finished(state, seat)

    return judge


def bots_judge(game: Game, spec: str) -> Judge:
    """Every seat played by a fresh bot (``spec``) that sees only its own view of the sample."""
    talk = game.is_talk

    def judge(state: State, seat: int, rng: random.Random) -> Outcome:
        base = rng.getrandbits(32)
        bots = [make_bot(spec, game.name, seed=base + s) for s in range(state.players)]
        while not state.over:
            for s in state.to_act():
                if state.over or s not in state.to_act():
                    continue
                legal = [a for a in state.legal(s) if not talk(a)]
                state.act(s, bots[s].choose(state.view(s), legal))
        return _finished(state, seat)

    return judge


def solver_judge(game: Game) -> Judge:
    """The game's position solver on the sample (a win or a loss); a playout where the
    solver's budget runs out, so that every sample gets an answer."""
    solver = game.solver
    if solver is None:
        raise ValueError(f"{game.title} has no solver to judge with")
    fallback = playout_judge(game)

    def judge(state: State, seat: int, rng: random.Random) -> Outcome:
        won = solver(state, SOLVER_BUDGET)
        if won is None:
            return fallback(state, seat, rng)
        return Outcome(won, None, None)

    return judge


def judge_kind(game: Game) -> str:
    """``playout``, ``bots`` or ``solver``: the kind of judge ``game`` asks for."""
    return game.review_judge.partition(":")[0]


def judge_for(game: Game) -> Judge:
    """The judge ``game`` asks for (``Game.review_judge``)."""
    kind, _, spec = game.review_judge.partition(":")
    if kind == "playout":
        return playout_judge(game)
    if kind == "bots" and spec:
        return bots_judge(game, spec)
    if kind == "solver":
        return solver_judge(game)
    raise ValueError(f"{game.title} asks for an unknown review judge {game.review_judge!r}")


#: samples per decision at the normal depth, by kind of judge: a judge's cost sets how many a
#: review of a typical game can afford in a minute (docs/review.md, "Cost")
SAMPLES = {"playout": 48, "solver": 24, "bots": 8}
