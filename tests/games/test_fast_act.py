"""Each game's own ``act`` (#29: the common legal action checked and applied in one piece)
does what the base class's ``act`` does: the same state after every legal action, and for a
refused one the same error, with the same reason, and the state left as it was.

Every action of random games is tried both ways on two copies, and so are actions that the
rules refuse (another seat's, one of the wrong phase, texts of other games, bad types).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable import games
from cardtable.core.errors import CardtableError
from cardtable.core.protocol import State

CONFIGS = [("slide", 2), ("slide", 4), ("doublets", 1), ("the-game", 1), ("the-game", 3)]

#: texts that are well formed in some game, and a few that are not texts at all
OTHER_TEXTS: list[Any] = [
    "flip",
    "redeal",
    "play waste",
    "play r3",
    "reveal a1",
    "reveal d4",
    "take 7 left",
    "take 1 bottom",
    "play 34 up1",
    "play 2 down2",
    "play 99 up2",
    "end",
    "signal up1 avoid",
    "",
    None,
    ["flip"],
    7,
]


def outcome(state: State, act: Any, seat: Any, action: Any) -> tuple[str, str]:
    """What acting did: the error's type and reason, or nothing."""
    try:
        act(state, seat, action)
    except CardtableError as e:
        return type(e).__name__, str(e)
    except TypeError as e:  # an unhashable action: refused alike either way
        return "TypeError", str(e)
    return "", ""


def both_ways(state: State, seat: Any, action: Any) -> tuple[str, str]:
    """Act on a copy by the base class's way and on ``state`` by the game's; both must agree."""
    other = state.clone()
    by_base = outcome(other, State.act, seat, action)
    by_game = outcome(state, type(state).act, seat, action)
    assert by_game == by_base, (seat, action)
    assert state.snapshot() == other.snapshot(), (seat, action)
    return by_game


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@pytest.mark.parametrize("seed", range(4))
def test_the_games_own_act_is_the_base_classs(name, players, seed):
    state = games.get(name).deal(seed, players)
    rng = random.Random(seed)
    seats: list[Any] = [*range(players), players, -1, True, 0.0]
    while not state.over:
        for _ in range(3):  # refused (or allowed) tries first
            wrong = rng.choice([*OTHER_TEXTS, *state.legal(rng.randrange(players))])
            both_ways(state, rng.choice(seats), wrong)
        if state.over:  # a try may have been legal, and ended the game
            break
        seat = rng.choice(state.to_act())
        legal = state.legal(seat)
        assert both_ways(state, seat, rng.choice(legal)) == ("", "")
    for action in OTHER_TEXTS:  # the game over: every try refused alike
        both_ways(state, 0, action)
