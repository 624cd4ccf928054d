"""The fair Doublets bot: legal moves, a high win share, views only, hints."""

from __future__ import annotations

import copy
import inspect
import json

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.doublets import fair as doublets_fair
from cardtable.bots.doublets.fair import FairBot, hint, legal_from_view

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
        # the reason is the game's words, not notation ("Turn the next stock card: ...")
        assert reason.startswith(GAME.describe_hint(view, action))  # (+ the bot's note)
        assert reason.startswith(("Turn the next", "Play the", "Turn the waste"))
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


def actions_of(seed: int, spec: str, bot_seed: int) -> list[str]:
    state = GAME.deal(seed)
    bot = make_bot(spec, "doublets", bot_seed)
    while not state.over:
        legal = state.legal(0)
        action = bot.choose(json.loads(json.dumps(state.view(0))), list(legal))
        assert action in legal
        state.act(0, action)
    return list(state.actions)


def test_reproducible_under_a_seed() -> None:
    assert actions_of(20011, "fair", 5) == actions_of(20011, "fair", 5)


def first_pass_choice(seed: int) -> tuple[object, object]:
    """A state at the first choice the sampling level weighs by solving possible stocks
    (play the waste now or flip on)."""
    state = GAME.deal(seed)
    bot = FairBot("doublets", 1, "easy")
    while not state.over and state.redeals_left == 2:
        legal = state.legal(0)
        if "play waste" in legal and "flip" in legal:
            return state, legal
        state.act(0, bot.choose(state.view(0), legal))
    raise AssertionError("no first-pass choice")


def test_first_pass_decision_depends_on_the_view_only() -> None:
    import random

    for seed in (20001, 20002, 20003, 20004):
        state, legal = first_pass_choice(seed)
        other = state.redraw_hidden(0, random.Random(seed))  # the same view, another stock
        assert other.view(0) == state.view(0)
        assert other.snapshot()["stock"] != state.snapshot()["stock"]  # the test may peek
        first = FairBot("doublets", 9).decide(state.view(0), list(legal))
        again = FairBot("doublets", 9).decide(other.view(0), list(other.legal(0)))
        assert first == again and "possible" in first[1]  # decided on sampled stocks


def test_value_orders_are_every_order_once() -> None:
    orders = doublets_fair._value_orders(["AS", "AH", "2C", "3D"], 16)
    assert orders is not None and len(orders) == 12  # 4! / 2!
    values = {tuple(c[0] for c in o) for o in orders}
    assert len(values) == 12 and all(sorted(o) == ["2C", "3D", "AH", "AS"] for o in orders)
    assert doublets_fair._value_orders(["AS", "2H", "3C", "4D", "5S"], 16) is None  # 120


def test_the_diagnosis_finds_the_losing_move() -> None:
    from cardtable.solvers.doublets import first_mistake, solve, still_winnable

    seed = 7
    start = GAME.deal(seed)
    line = solve(start).line
    assert line and first_mistake(start, line) is None  # a winning line has no mistake
    # follow the winning line, then stray at the first place where straying loses the deal
    state = start.clone()
    for k, action in enumerate(line):
        for other in state.legal(0):
            if other == action:
                continue
            trial = state.clone()
            trial.act(0, other)
            if still_winnable(trial) is False:
                # play on from the mistake to the end, whatever it takes
                tail = [other]
                while not trial.over:
                    tail.append(trial.legal(0)[-1])
                    trial.act(0, tail[-1])
                found = first_mistake(start, line[:k] + tail)
                assert found is not None
                assert (found.move, found.played) == (k + 1, other)
                assert found.first_pass == (state.redeals_left == 2)
                check = state.clone()
                check.act(0, found.alternative)
                assert still_winnable(check)
                return
        state.act(0, action)
    raise AssertionError("no losing move along the line")


def test_a_first_pass_without_a_play_is_remembered_after_the_redeal() -> None:
    # after the redeal the view looks like a fresh deal but for the redeals left
    state = GAME.deal(6)
    bot = FairBot("doublets", 6)
    while "flip" in state.legal(0):
        bot.observe(state.view(0))
        state.act(0, "flip")
    bot.observe(state.view(0))
    state.act(0, "redeal")
    view = state.view(0)
    bot.observe(view)
    assert bot.known_stock(view) == state.snapshot()["stock"][::-1]  # the test may peek


def test_a_move_never_spends_more_than_its_budget() -> None:
    # a tiny budget: close calls run out of it, and the bot still plays legal moves to the end
    state = GAME.deal(20005)
    bot = FairBot("doublets", 3)
    bot.move_budget = 300
    ran_out = False
    while not state.over:
        legal = state.legal(0)
        action, reason = bot.decide(json.loads(json.dumps(state.view(0))), list(legal))
        assert action in legal
        if state.redeals_left == 2 and bot.order is None:
            assert bot.spent <= bot.move_budget + 1  # a search stops one node past its cap
        ran_out = ran_out or "within the move's budget" in reason
        state.act(0, action)
    assert ran_out


def test_a_waste_play_is_taken_only_after_the_long_screen() -> None:
    # a waste play is the default; taken unjudged only when it wins in all SCREEN_WASTE stocks
    for seed in (20001, 20002, 20003, 20004):
        state, legal = first_pass_choice(seed)
        action, reason = FairBot("doublets", 9).decide(state.view(0), list(legal))
        if action == "play waste" and "wins in all" in reason:
            assert f"all {doublets_fair.SCREEN_WASTE['normal']} possible" in reason
