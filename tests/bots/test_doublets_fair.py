"""The fair Doublets bot: legal moves, a high win share, views only, hints."""

from __future__ import annotations

import copy
import inspect
import json

from cardtable import games
from cardtable.bots import doublets_fair, make_bot
from cardtable.bots.doublets_fair import FairBot, hint, legal_from_view

GAME = games.get("doublets")


def play(seed: int, spec: str) -> bool:
    state = GAME.deal(seed)
    bot = make_bot(spec, "doublets", seed)
    while not state.over:
        legal = state.legal(0)
        # the bot gets a copy of the view that went through JSON: nothing of the state
        view = json.loads(json.dumps(state.view(0)))
        action = bot.choose(view, list(legal))
        assert action in legal
        state.act(0, action)
    return state.won


def test_registered() -> None:
    assert isinstance(make_bot("fair", "doublets"), FairBot)
    assert FairBot.games == ("doublets",)


def test_wins_a_high_share() -> None:
    # the first pass played greedily, then exact play from memory (the quick level)
    wins = sum(play(seed, "fair:easy") for seed in range(1, 31))
    assert wins >= 28


def test_sampling_level_plays_legal_winning_games() -> None:
    assert play(1, "fair")


def test_never_reads_the_state() -> None:
    source = inspect.getsource(doublets_fair)
    for peek in ("position_from_state", "DoubletsState", ".stock", "snapshot(", "solve_seed"):
        assert peek not in source


def test_legal_from_view_matches_the_engine() -> None:
    state = GAME.deal(3)
    for _ in range(60):
        if state.over:
            break
        assert legal_from_view(state.view(0)) == state.legal(0)
        state.act(0, state.legal(0)[-1] if len(state.legal(0)) > 1 else state.legal(0)[0])


def test_hint_gives_a_legal_move_and_a_reason() -> None:
    state = GAME.deal(4)
    bot = FairBot("doublets", 4, "easy")
    for _ in range(30):
        view = state.view(0)
        action, reason = hint(copy.deepcopy(view), bot)
        assert action in state.legal(0)
        assert reason.startswith(action.split()[0])
        state.act(0, action)
    action, reason = hint(GAME.deal(4).view(0))
    assert action in GAME.deal(4).legal(0) and reason


def test_remembers_the_stock_after_the_first_pass() -> None:
    state = GAME.deal(6)
    bot = FairBot("doublets", 6, "easy")
    while state.redeals_left == 2 and not state.over:
        state.act(0, bot.choose(state.view(0), state.legal(0)))
    if not state.over:
        stock = bot.known_stock(state.view(0))
        names = [c for c in state.snapshot()["stock"]][::-1]  # the test may peek: top first
        assert stock == names
