"""The Doublets solver's last-pass bound, made cheaper per node (#29), answers exactly as the
plain form did: the search visits the same positions, so the fair bot makes the same moves
with the same node counts (``tests/bots/doublets/test_fair_moves.py`` pins those).

``plain`` below is ``last_pass_possible`` as it stood before (commit e7463d6), word for
word; the solver's form splits it into what the waste asks of the stock and where the stock
holds each value, each kept for a search, and checks a waste card against the step function
of flips in one sweep instead of iterating to a fixpoint.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.games.doublets import KING, NEXT, NON_KINGS, DoubletsState
from cardtable.solvers import doublets as solver
from cardtable.solvers.doublets import (
    _FIRST_NEEDED,
    _LAST_NEEDED,
    _last_pass_possible,
    last_pass_possible,
    pack_reserves,
    position_from_state,
)

GAME = games.get("doublets")


def plain(deck: bytes, pointer: int, reserves: int, need: int, left: int) -> bool:
    """``last_pass_possible`` as it was (commit e7463d6)."""
    first = _FIRST_NEEDED[need]
    # the waste copies of each value, by the earliest play that can take them off (top first)
    waste: list[list[int]] = [[] for _ in range(KING)]
    for i in range(pointer - 1, -1, -1):
        v = deck[i]
        if v != KING:
            waste[v].append(pointer - i)
    # flips[t]: stock cards that must be flipped by play t (to bring up a needed copy in time)
    flips = [0] * (left + 2)
    forced = False
    for v in range(1, KING):
        t = first[v]
        if t > left:
            continue
        have = (reserves >> (3 * v)) & 7
        early = waste[v]
        k = ready = taken = 0
        j = pointer - 1
        while t <= left:
            k += 1
            while ready < len(early) and early[ready] <= t:
                ready += 1
            short = k - have - ready  # copies that can only come from the stock by play t
            while taken < short:
                j = deck.find(v, j + 1)
                if j < 0:
                    return False
                taken += 1
            if short > 0 and j - pointer + 1 > flips[t]:
                flips[t] = j - pointer + 1
                forced = True
            t += 12
    if forced:
        for t in range(1, left + 2):
            if flips[t] < flips[t - 1]:
                flips[t] = flips[t - 1]
    last = list(_LAST_NEEDED[need, left])
    for i in range(pointer):  # the waste, bottom first: the bottom copy serves the last time
        v = deck[i]
        if v != KING:
            due = last[v]
            depth = pointer - i  # plays to take it off, if nothing is flipped onto it
            if depth > due:
                return False
            if forced:
                at = depth
                while True:  # flipped before it comes off: those come off first
                    later = depth + flips[at if at <= left else left + 1]
                    if later > due:
                        return False
                    if later <= at:
                        break
                    at = later
            last[v] -= 12
    return True


def needed_run(need: int, left: int) -> list[int]:
    """The values the foundation still wants, in order: what a win has left to play."""
    out = []
    for _ in range(left):
        out.append(need)
        need = NEXT[need]
    return out


@st.composite
def last_passes(draw: st.DrawFn) -> tuple[bytes, int, int, int, int]:
    """A last pass's bound arguments: the cards still needed (plus kings) dealt at random
    between the reserves (up to 7), the waste and the stock."""
    need = draw(st.integers(1, 12))
    left = draw(st.integers(0, NON_KINGS))
    cards = needed_run(need, left) + [KING] * draw(st.integers(0, 4))
    cards = draw(st.permutations(cards))
    kept = draw(st.integers(0, min(7, len(cards))))
    res, deck = cards[:kept], bytes(cards[kept:])
    pointer = draw(st.integers(0, len(deck)))
    return deck, pointer, pack_reserves(res), need, left


@st.composite
def anything(draw: st.DrawFn) -> tuple[bytes, int, int, int, int]:
    """Arguments no game reaches (too many or too few copies): the answers still agree."""
    deck = bytes(draw(st.lists(st.integers(1, KING), max_size=52)))
    pointer = draw(st.integers(0, len(deck)))
    reserves = pack_reserves(draw(st.lists(st.integers(1, KING), max_size=7)))
    return deck, pointer, reserves, draw(st.integers(1, 12)), draw(st.integers(0, NON_KINGS))


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(last_passes())
def test_the_bound_answers_as_the_plain_form(args: tuple[bytes, int, int, int, int]) -> None:
    assert last_pass_possible(*args) == plain(*args)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(anything())
def test_the_bound_answers_as_the_plain_form_on_any_arguments(
    args: tuple[bytes, int, int, int, int],
) -> None:
    assert last_pass_possible(*args) == plain(*args)


def test_the_kept_halves_give_the_same_answers_on_real_last_passes() -> None:
    # every position of real deals' last passes played at random, the halves kept across all
    # of them (as a search keeps them), and kept small (as the cap clears them)
    rng = random.Random(29)
    needs: dict[tuple[bytes, int, int, int], solver._Needs] = {}
    stocks: dict[bytes, tuple[int, tuple[bytes, ...]]] = {}
    seen = lost = 0
    for seed in range(1, 121):
        state = GAME.deal(seed)
        assert isinstance(state, DoubletsState)
        while not state.over:
            legal = state.legal(0)
            if not state.redeals_left:
                pos = position_from_state(state)
                args = pos.deck, pos.pointer, pos.reserves, pos.needed, pos.left
                answer = _last_pass_possible(*args, needs, stocks)
                assert answer == plain(*args) == last_pass_possible(*args)
                seen += 1
                lost += not answer
            state.act(0, rng.choice(legal) if rng.random() < 0.4 else legal[0])
    assert seen > 2000 and 0 < lost < seen


def test_the_cap_clears_the_kept_halves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "BOUND_CACHE_CAP", 3)
    rng = random.Random(4)
    needs: dict[tuple[bytes, int, int, int], solver._Needs] = {}
    stocks: dict[bytes, tuple[int, tuple[bytes, ...]]] = {}
    for _ in range(300):
        need = rng.randint(1, 12)
        cards = needed_run(need, 30) + [KING] * 4
        rng.shuffle(cards)
        deck = bytes(cards[5:])
        args = deck, rng.randint(0, len(deck)), pack_reserves(cards[:5]), need, 30
        assert _last_pass_possible(*args, needs, stocks) == plain(*args)
        assert len(needs) <= 3 and len(stocks) <= 3
