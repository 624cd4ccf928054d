"""Points by place: 1 for the first to 0 for the last, ties share, a table gives n / 2."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.protocol import ranks_of
from cardtable.tournaments import absent_last, place_points


def test_two_players_score_as_chess() -> None:
    assert place_points([1, 2]) == [1, 0]
    assert place_points([1, 1]) == [F(1, 2), F(1, 2)]


def test_a_table_of_four_spreads_thirds() -> None:
    assert place_points([2, 1, 4, 3]) == [F(2, 3), 1, 0, F(1, 3)]


def test_tied_places_share_their_points() -> None:
    # two first of three share 1 and ½; the third has none
    assert place_points([1, 1, 3]) == [F(3, 4), F(3, 4), 0]
    assert place_points([1, 2, 2]) == [1, F(1, 4), F(1, 4)]


def test_ranks_that_are_no_places_are_refused() -> None:
    with pytest.raises(ValueError):
        place_points([1, 3])
    with pytest.raises(ValueError):
        place_points([1])


@given(st.lists(st.integers(0, 30), min_size=2, max_size=6), st.sampled_from(["low", "high"]))
def test_every_table_gives_half_a_point_a_seat(scores: list[int], better: str) -> None:
    points = place_points(ranks_of(scores, better))
    assert sum(points) == F(len(scores), 2)
    assert all(0 <= p <= 1 for p in points)
    # a better score never earns fewer points
    sign = 1 if better == "low" else -1
    for a, pa in zip(scores, points, strict=True):
        for b, pb in zip(scores, points, strict=True):
            if sign * a < sign * b:
                assert pa > pb


def test_absent_seats_rank_after_everyone_present() -> None:
    # the bot playing the second seat won, but its person never came: last
    assert absent_last([2, 1, 3], [False, True, False]) == [1, 3, 2]
    assert absent_last([1, 2, 3, 4], [True, False, True, False]) == [3, 1, 3, 2]
    assert absent_last([1, 1, 3], [False, False, False]) == [1, 1, 3]
