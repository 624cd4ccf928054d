"""Shared test helpers: playing games out and comparing states."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path

from cardtable import games
from cardtable.bots import make_bot

#: every game with every player count it allows
GAME_SEATS = [
    (name, n)
    for name in games.names()
    for n in range(games.get(name).min_players, games.get(name).max_players + 1)
]


def random_game(name: str, players: int, seed: int, rng: random.Random):
    """Yield (state, seat, action) along a random game, before each action is applied.

    Moves are a mix of greedy and random ones (pure random play ends The Game within a few
    turns); now and then a pile signal.
    """
    state = games.get(name).deal(seed, players)
    greedy = make_bot("greedy", name)
    while not state.over:
        seat = rng.choice(state.to_act())
        if rng.random() < 0.05:  # a seat outside to_act: a signal, or a change of mind
            other = rng.randrange(players)
            if state.legal(other):
                seat = other
        legal = state.legal(seat)
        moves = [a for a in legal if not a.startswith("signal")]
        roll = rng.random()
        if seat not in state.to_act():
            action = rng.choice(legal)
        elif moves and roll < 0.6:
            action = greedy.choose(state.view(seat), legal)
        elif moves and roll < 0.95:
            action = rng.choice(moves)
        else:
            action = rng.choice(legal)
        yield state, seat, action
        state.act(seat, action)


def load_bench(name: str):
    """The module ``bench/NAME.py`` (benchmarks are scripts, not a package), imported as
    ``NAME``."""
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def play_checking_legal(state, seat_bots: list) -> None:
    """Play ``state`` to the end with one bot per seat, asserting each choice is legal."""
    while not state.over:
        for seat in state.to_act():
            legal = state.legal(seat)
            action = seat_bots[seat].choose(state.view(seat), legal)
            assert action in legal
            state.act(seat, action)


async def play_with_greedy(
    sock, game: str, timeout: float = 60, errors_allowed: bool = True
) -> dict:
    """Play a websocket's seat (``server.conftest.Socket``) with the greedy policy until the
    game is over, or stuck (a solitaire with no move left, held open for undo); the last
    state. ``errors_allowed``: an answer may be an error (``stale`` when a bot moved
    meanwhile); otherwise every action must be acknowledged."""
    bot = make_bot("greedy", game)
    while True:
        state = await sock.until(
            lambda s: (
                s["table"]["status"] == "over"
                or stuck(s)
                or (s["legal"] and s["seat"] in s["view"]["to_act"])
            ),
            timeout=timeout,
        )
        if state["table"]["status"] == "over" or stuck(state):
            return state
        answer = await sock.act(bot.choose(state["view"], state["legal"]))
        assert answer["type"] == "ack" or (errors_allowed and answer["type"] == "error"), answer


def stuck(state: dict) -> bool:
    """Whether a state message shows a solitaire stuck and held open for undo: running,
    nobody to act (docs/server.md, "Table lifecycle")."""
    return (
        state["table"]["status"] == "running"
        and state["table"]["players"] == 1
        and not state["view"]["to_act"]
    )


def need_rl() -> None:
    """Skip a module of environment tests where the rl extra is missing, except in CI:
    ``.ci/run`` sets CARDTABLE_TEST_NEED_RL, and there a missing package fails them."""
    import pytest

    if os.environ.get("CARDTABLE_TEST_NEED_RL"):
        return  # the imports that follow fail loudly if the extra is missing
    for module in ("numpy", "gymnasium", "pettingzoo"):
        pytest.importorskip(module, reason=f"the rl extra ({module}) is not installed")


def random_tops(rng, m: int):
    """``m`` rows of The Game's four pile tops drawn by numpy generator ``rng`` (rising piles
    40-100, falling ones 1-59: most hands then hold few cards that fit), as an (m, 4) array."""
    import numpy as np

    return np.stack(
        [
            rng.integers(40, 101, m),
            rng.integers(40, 101, m),
            rng.integers(1, 60, m),
            rng.integers(1, 60, m),
        ],
        axis=1,
    )
