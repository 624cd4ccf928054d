"""Duplicate: every entry the same deals; ranked by the games' own scores, ties by time."""

from __future__ import annotations

from cardtable.tournaments import Entry, rank_entries


def test_the_game_ranks_fewest_cards_left_first_then_time() -> None:
    entries = [
        Entry("ann", (3, 0), seconds=600),
        Entry("bob", (0, 2), seconds=400),
        Entry("cy", (1, 1), seconds=500),
        Entry("dee", (0, None), seconds=100),
    ]
    placed = [(place, e.id) for place, e in rank_entries(entries, "low")]
    assert placed == [(1, "bob"), (2, "cy"), (3, "ann"), (4, "dee")]


def test_doublets_ranks_most_cards_on_the_foundation_first() -> None:
    entries = [Entry("ann", (30,), 90.0), Entry("bob", (52,), 300.0), Entry("cy", (30,), 90.0)]
    placed = [(place, e.id) for place, e in rank_entries(entries, "high")]
    assert placed == [(1, "bob"), (2, "ann"), (2, "cy")]
