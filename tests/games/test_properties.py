"""Properties over random games of every game and player count (hypothesis).

- cards are conserved;
- a view is the same whatever the hidden cards are (so it cannot leak them): we shuffle
  everything the viewer may not know and compare views;
- ``replay(record())`` rebuilds the state; ``clone()`` is independent;
- refused actions leave the state unchanged.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import IllegalAction, games
from helpers import GAME_SEATS, random_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
game_cases = st.tuples(
    st.sampled_from(GAME_SEATS), st.integers(0, 10**6), st.integers(0, 2**32).map(random.Random)
)


# -- cards conserved -------------------------------------------------------------------------
#: each game's whole deck, as its rules page gives it (the ``cards()`` hook counts every card)
DECKS = {
    "slide": Counter({v: 10 for v in range(1, 11)}),
    "doublets": Counter({v * 4 + s: 1 for v in range(1, 14) for s in range(4)}),
    "the-game": Counter(range(2, 100)),
}


def check_cards(state) -> None:
    """Every card is somewhere, once: the game's hook counts the whole deck at every step."""
    assert state.cards() == DECKS[state.game.name]


def test_every_game_counts_its_cards():
    assert set(DECKS) == set(games.names())
    for name in games.names():
        state = games.get(name).deal(1)
        assert state.cards() == DECKS[name], name


# -- hidden information ----------------------------------------------------------------------
def check_views_hide(state, rng: random.Random) -> None:
    for seat in [None, *range(state.players)]:
        twin = state.redraw_hidden(seat, rng)
        assert twin.view(seat) == state.view(seat), f"view({seat}) shows hidden cards"


@SETTINGS
@given(game_cases)
def test_cards_conserved_and_views_hide_hidden_cards(case):
    (name, n), seed, rng = case
    for step, (state, _seat, _action) in enumerate(random_game(name, n, seed, rng)):
        if step % 7 == 0:
            check_cards(state)
            check_views_hide(state, rng)
    check_cards(state)


@SETTINGS
@given(game_cases)
def test_a_redraw_depends_on_the_view_alone(case):
    """Two states a seat cannot tell apart redraw alike for the same random numbers: what a
    seat's samples hold (a bot's, a game review's) never depends on the truth it cannot see."""
    (name, n), seed, rng = case
    for step, (state, _seat, _action) in enumerate(random_game(name, n, seed, rng)):
        if step % 9 == 0:
            for seat in [None, *range(state.players)]:
                twin = state.redraw_hidden(seat, rng)  # the seat cannot tell them apart
                k = rng.getrandbits(32)
                mine = state.redraw_hidden(seat, random.Random(k))
                theirs = twin.redraw_hidden(seat, random.Random(k))
                assert mine.snapshot() == theirs.snapshot(), (name, step, seat)


def test_hidden_check_would_catch_a_leak():
    """The view comparison above is not vacuous: the truth differs between the twins."""
    rng = random.Random(1)
    for name, n in [("slide", 2), ("doublets", 1), ("the-game", 3)]:
        state = games.get(name).deal(4, n)
        twin = state.redraw_hidden(0, rng)
        assert twin.snapshot() != state.snapshot()


@SETTINGS
@given(game_cases)
def test_replay_of_record_equals_state_at_every_point(case):
    (name, n), seed, rng = case
    for step, (state, _seat, _action) in enumerate(random_game(name, n, seed, rng)):
        if step % 11 == 0:
            assert games.replay(state.record()) == state
    assert games.replay(state.record()) == state


@SETTINGS
@given(game_cases)
def test_clone_is_independent(case):
    (name, n), seed, rng = case
    for state, seat, action in random_game(name, n, seed, rng):
        if rng.random() < 0.1:
            before = state.snapshot()
            copy = state.clone()
            assert copy == state
            copy.act(seat, action)
            if not copy.over:
                copy.playout(["random"] * n, rng)
            assert state.snapshot() == before


JUNK = [
    "",
    " ",
    "play",
    "take 7",
    "reveal",
    "flip flip",
    "end end",
    "signal up1",
    "PLAY WASTE",
    "take 0 left",
    "play 1 up1",
    "reveal e5",
    "play r0",
    "signal up5 avoid",
    "x" * 500,
]


@SETTINGS
@given(game_cases)
def test_refused_actions_change_nothing(case):
    (name, n), seed, rng = case
    for state, seat, _action in random_game(name, n, seed, rng):
        if rng.random() < 0.2:
            before = state.snapshot()
            legal = set(state.legal(seat))
            # other seats' legal actions and junk text
            tries = [a for s in range(n) for a in state.legal(s)] + JUNK
            for attempt in rng.sample(tries, min(8, len(tries))):
                for who in {seat, rng.randrange(n)}:
                    if who == seat and attempt in legal:
                        continue
                    if who != seat and attempt in state.legal(who):
                        continue
                    try:
                        state.act(who, attempt)
                    except IllegalAction as e:
                        assert e.reason
                    else:
                        raise AssertionError(f"{attempt!r} by {who} was accepted")
                    assert state.snapshot() == before


@SETTINGS
@given(game_cases)
def test_legal_actions_are_accepted_and_stable(case):
    (name, n), seed, rng = case
    for state, seat, action in random_game(name, n, seed, rng):
        assert state.legal(seat) == state.legal(seat)
        assert action in state.legal(seat)
        assert seat in state.to_act() or action.startswith(("signal", "reveal"))
    assert state.to_act() == ()
    assert all(state.legal(s) == [] for s in range(n))
    assert state.result()["over"]


OPTION_CASES = [
    ("slide", 3, {"target": 70}),
    ("slide", 2, {"start": 1, "target": 40}),
    ("the-game", 2, {"pro": True}),
    ("the-game", 3, {"min_after_empty": 2}),
    ("the-game", 4, {"start": 2, "pro": True, "min_after_empty": 2}),
]


@pytest.mark.parametrize(("name", "n", "options"), OPTION_CASES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_fast_playouts_with_options_replay_exactly(name, n, options, policy):
    for seed in range(15):
        state = games.get(name).deal(seed, n, options)
        state.playout([policy] * n, random.Random(seed))
        assert state.over
        check_cards(state)
        assert games.replay(state.record()) == state


# -- move labels -----------------------------------------------------------------------------
def outcome(make, *args):
    """What ``make(*args)`` gives, or the kind of error it raises."""
    try:
        return make(*args)
    except Exception as e:  # noqa: BLE001 - compared, not handled
        return type(e)


def one_by_one(game, view, actions):
    return [game.move_label(view, a) for a in actions]


@SETTINGS
@given(game_cases)
def test_a_games_labels_all_at_once_are_its_labels_one_by_one(case):
    # (a state message labels every legal action with Game.move_labels)
    (name, n), seed, rng = case
    game = games.get(name)
    odd = ["play 150 up1", "play x down2", "end", "signal up1 good", "flip", "take a1"]
    for state, _seat, _action in random_game(name, n, seed, rng):
        for seat in range(state.players):
            view = state.view(seat)
            for actions in (state.legal(seat), odd, odd[:1], odd[2:]):
                assert outcome(game.move_labels, view, actions) == outcome(
                    one_by_one, game, view, actions
                )
