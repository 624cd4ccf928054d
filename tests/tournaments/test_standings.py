"""Standings: points, then Buchholz, then wins, then the entry order."""

from __future__ import annotations

from fractions import Fraction as F

from cardtable.tournaments import Round, Table, standings


def test_points_rank_first() -> None:
    rounds = [Round((Table(("a", "b"), (2, 1)), Table(("c", "d"), (1, 2))))]
    table = standings(list("abcd"), rounds)
    assert [s.entrant for s in table][:2] == ["b", "c"]
    assert [s.points for s in table] == [1, 1, 0, 0]


def test_buchholz_breaks_a_tie_of_points() -> None:
    # b and c both won once; b's opponents scored more over the tournament than c's
    rounds = [
        Round((Table(("a", "b"), (2, 1)), Table(("c", "d"), (1, 2)))),
        Round((Table(("a", "d"), (1, 2)), Table(("b", "c"), (1, 1)))),
    ]
    table = {s.entrant: s for s in standings(list("abcd"), rounds)}
    assert table["b"].points == table["c"].points == F(3, 2)
    assert table["b"].buchholz == F(1) + F(3, 2)  # a's 1, c's 1½
    assert table["c"].buchholz == F(0) + F(3, 2)  # d's 0, b's 1½
    assert table["b"].place < table["c"].place


def test_a_table_not_over_yet_counts_for_nothing() -> None:
    rounds = [Round((Table(("a", "b")),), byes=("c",))]
    table = {s.entrant: s for s in standings(list("abc"), rounds)}
    assert table["c"].points == F(1, 2) and table["c"].byes == 1
    assert table["a"].games == 0 and table["a"].by_round == [None]
    assert table["c"].place == 1


def test_the_entry_order_breaks_the_last_tie() -> None:
    assert [s.entrant for s in standings(list("zyx"), [])] == list("zyx")
