"""Arena: the waiting seated at once near their score, away from their last opponents."""

from __future__ import annotations

from fractions import Fraction as F

from cardtable.tournaments import arena_points, seat_waiting


def test_fewer_than_a_table_wait_unless_flushed() -> None:
    assert seat_waiting(["a", "b"], {}, {}, 3, 2) == ([], ["a", "b"])
    assert seat_waiting(["a", "b"], {}, {}, 3, 2, flush=True) == ([("a", "b")], [])
    assert seat_waiting(["a"], {}, {}, 2, 2, flush=True) == ([], ["a"])


def test_the_waiting_sit_with_those_near_their_score() -> None:
    points = {"a": F(3), "b": F(0), "c": F(2), "d": F(1)}
    tables, waits = seat_waiting(["a", "b", "c", "d"], points, {}, 2, 2)
    assert tables == [("a", "c"), ("d", "b")] and waits == []


def test_last_opponents_are_kept_apart_where_the_others_allow() -> None:
    last = {"a": {"c"}, "c": {"a"}}
    points = {"a": F(3), "b": F(0), "c": F(2), "d": F(1)}
    tables, _ = seat_waiting(["a", "b", "c", "d"], points, last, 2, 2)
    assert tables == [("a", "d"), ("c", "b")]


def test_an_odd_one_waits_for_the_next_game() -> None:
    tables, waits = seat_waiting(["a", "b", "c"], {}, {}, 2, 2)
    assert tables == [("a", "b")] and waits == ["c"]


def test_a_streak_doubles_the_points_until_a_game_is_not_won() -> None:
    games = [(F(1), True), (F(1), True), (F(1), True), (F(1, 2), False), (F(1), True)]
    assert arena_points(games) == [1, 1, 2, 1, 1]
    assert arena_points(games, streaks=False) == [1, 1, 1, F(1, 2), 1]


def test_arena_standings_count_streaks_in_the_order_played() -> None:
    from cardtable.tournaments import Round, Table, arena_standings, on_streak

    rounds = [
        Round((Table(("a", "b"), (1, 2)),)),
        Round((Table(("a", "c"), (1, 2)),)),
        Round((Table(("a", "b"), (1, 2)), Table(("c", "d"), (2, 1)))),
        Round((Table(("c", "d")),)),  # not over: counts for nothing yet
    ]
    table = {s.entrant: s for s in arena_standings(list("abcd"), rounds)}
    assert table["a"].points == 4 and table["a"].wins == 3 and table["a"].games == 3  # 1+1+2
    assert table["d"].points == 1 and table["b"].points == 0
    assert [s.entrant for s in arena_standings(list("abcd"), rounds)] == list("adbc")
    assert arena_standings(list("abcd"), rounds, streaks=False)[0].points == 3
    assert on_streak("a", rounds) and not on_streak("d", rounds)
