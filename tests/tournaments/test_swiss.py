"""Swiss pairing: table sizes, byes to the lowest, no rematch while one can be avoided."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations, pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.tournaments import Round, Table, pair_round, standings, table_sizes
from cardtable.tournaments.standings import points_of


def test_table_sizes_are_even_and_within_bounds() -> None:
    assert table_sizes(9, 3, 2) == ([3, 3, 3], 0)
    assert table_sizes(10, 4, 2) == ([4, 3, 3], 0)
    assert table_sizes(5, 4, 2) == ([3, 2], 0)
    assert table_sizes(7, 6, 2) == ([4, 3], 0)
    assert table_sizes(9, 2, 2) == ([2, 2, 2, 2], 1)
    assert table_sizes(1, 4, 2) == ([], 1)


def test_the_first_round_seats_neighbours_in_the_entry_order() -> None:
    pairing = pair_round(list("abcdef"), {}, set(), 3, 2)
    assert [t.players for t in pairing.round.tables] == [("a", "b", "c"), ("d", "e", "f")]
    assert pairing.rematches == 0


def test_the_bye_goes_to_the_lowest_who_has_not_had_one() -> None:
    order = list("abcde")
    assert pair_round(order, {}, set(), 2, 2).round.byes == ("e",)
    assert pair_round(order, {}, {"e"}, 2, 2).round.byes == ("d",)
    assert pair_round(order, {}, set(order), 2, 2).round.byes == ("e",)


def test_a_rematch_is_avoided_by_reaching_further_down() -> None:
    met = {"a": {"b"}, "b": {"a"}}
    pairing = pair_round(list("abcd"), met, set(), 2, 2)
    assert [t.players for t in pairing.round.tables] == [("a", "c"), ("b", "d")]


def test_an_unavoidable_rematch_is_allowed_and_counted() -> None:
    met = {"a": {"b"}, "b": {"a"}}
    pairing = pair_round(list("ab"), met, set(), 2, 2)
    assert pairing.round.tables == (Table(("a", "b")),)
    assert pairing.rematches == 1


def _partitions(people: list[str], sizes: Counter[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``people`` at tables of ``sizes`` (brute force, small counts)."""
    if not people:
        yield []
        return
    head, rest = people[0], people[1:]
    for size in [s for s in sizes if sizes[s]]:
        for others in combinations(rest, size - 1):
            sizes[size] -= 1
            left = [p for p in rest if p not in others]
            for below in _partitions(left, sizes):
                yield [(head, *others), *below]
            sizes[size] += 1


def _clean(groups: list[tuple[str, ...]], met: dict[str, set[str]]) -> bool:
    return all(b not in met[a] for g in groups for i, a in enumerate(g) for b in g[i + 1 :])


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[str], dict[str, set[str]], int]:
    n = draw(st.integers(2, 9))
    people = [f"p{i}" for i in range(n)]
    met: dict[str, set[str]] = {p: set() for p in people}
    for a, b in draw(st.lists(st.tuples(st.sampled_from(people), st.sampled_from(people)))):
        if a != b:
            met[a].add(b)
            met[b].add(a)
    return people, met, draw(st.integers(2, 4))


@settings(max_examples=150, deadline=None)
@given(histories())
def test_no_rematch_while_one_can_be_avoided(case: tuple[list[str], dict, int]) -> None:
    people, met, size = case
    pairing = pair_round(people, met, set(), size, 2)
    rnd = pairing.round
    # every entrant once: at a table or with a bye
    assert sorted(rnd.seated() + list(rnd.byes)) == sorted(people)
    sizes, _ = table_sizes(len(people), size, 2)
    assert sorted(len(t.players) for t in rnd.tables) == sorted(sizes)
    playing = [p for p in people if p not in rnd.byes]
    avoidable = any(_clean(g, met) for g in _partitions(playing, Counter(sizes)))
    if avoidable:
        assert pairing.rematches == 0, (met, rnd)


def _play(rnd: Round, strength: dict[str, int]) -> Round:
    """The round's tables over: the stronger entrant (a lower number) places better."""
    tables = []
    for t in rnd.tables:
        order = sorted(t.players, key=strength.__getitem__)
        tables.append(Table(t.players, tuple(order.index(p) + 1 for p in t.players)))
    return Round(tuple(tables), rnd.byes)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 14), st.integers(2, 5), st.integers(1, 5), st.randoms(use_true_random=False))
def test_a_whole_swiss_conserves_points(n: int, size: int, rounds: int, rng) -> None:
    people = [f"p{i}" for i in range(n)]
    strength = {p: rng.random() for p in people}
    played: list[Round] = []
    met: dict[str, set[str]] = {p: set() for p in people}
    for _ in range(rounds):
        order = [s.entrant for s in standings(people, played)]
        had_bye = {b for r in played for b in r.byes}
        rnd = _play(pair_round(order, met, had_bye, size, 2).round, strength)
        assert sorted(rnd.seated() + list(rnd.byes)) == sorted(people)
        for t in rnd.tables:
            for p in t.players:
                met[p] |= set(t.players) - {p}
        played.append(rnd)
        # every round gives out half a point per entrant, byes included
        assert sum(points_of(played).values()) == Fraction(n * len(played), 2)
    table = standings(people, played)
    assert [s.place for s in table] == list(range(1, n + 1))
    assert all(a.points >= b.points for a, b in pairwise(table))


def test_the_search_gives_up_on_its_budget_and_still_seats_everyone() -> None:
    people = [f"p{i}" for i in range(40)]
    met = {p: {q for q in people if q != p and (int(p[1:]) + int(q[1:])) % 3} for p in people}
    pairing = pair_round(people, met, set(), 4, 2, budget=500)
    assert sorted(pairing.round.seated()) == sorted(people)


def test_a_large_round_is_seated_without_rematches() -> None:
    people = [f"p{i}" for i in range(100)]
    played: list[Round] = []
    met: dict[str, set[str]] = {p: set() for p in people}
    strength = {p: i for i, p in enumerate(people)}
    for _ in range(5):
        order = [s.entrant for s in standings(people, played)]
        pairing = pair_round(order, met, set(), 4, 2)
        assert pairing.rematches == 0
        rnd = _play(pairing.round, strength)
        for t in rnd.tables:
            for p in t.players:
                met[p] |= set(t.players) - {p}
        played.append(rnd)
