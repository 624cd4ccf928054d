"""Built-in bots decide from views, pick legal moves, and match the fast playouts."""

from __future__ import annotations

import random

import pytest

from cardtable import BadOptions, games
from cardtable.bots import make_bot, names
from cardtable.sim import play_one
from helpers import play_checking_legal


def test_bot_names():
    assert names()[:2] == ["random", "greedy"]
    assert set(names("slide")) <= set(names())
    with pytest.raises(BadOptions, match="no bot called 'clever'"):
        make_bot("clever", "slide")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_only_choose_legal_actions_from_views(game_seats, bot):
    name, n = game_seats
    state = games.get(name).deal(21, n)
    seat_bots = [make_bot(bot, name, s) for s in range(n)]
    play_checking_legal(state, seat_bots)


def test_random_bot_never_signals_while_it_can_move():
    state = games.get("the-game").deal(3, 2)
    bot = make_bot("random", "the-game", 1)
    for _ in range(50):
        assert not bot.choose(state.view(0), state.legal(0)).startswith("signal")


@pytest.mark.parametrize("seed", range(12))
def test_greedy_bot_plays_exactly_like_the_fast_greedy_playout(game_seats, seed):
    name, n = game_seats
    fast = games.get(name).deal(seed, n)
    fast.playout(["greedy"] * n, random.Random(0))
    slow = games.get(name).deal(seed, n)
    play_one(slow, [make_bot("greedy", name) for _ in range(n)])
    assert slow.actions == fast.actions
    assert slow == fast


def test_greedy_beats_random_at_slide():
    wins = 0
    for seed in range(40):
        state = games.get("slide").deal(seed, 2)
        state.playout(["greedy", "random"], random.Random(seed))
        wins += 0 in state.result()["winners"]
    assert wins >= 34
