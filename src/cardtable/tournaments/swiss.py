"""A Swiss round: tables formed by points, no rematch while one can be avoided, byes to the
lowest.

The entrants come in standings order (``standings``: best first). The round's tables are as
even as can be (their sizes differ by one at most, none above the organiser's size, none below
the game's least number of players); when the count cannot be split so, the lowest entrants
who have not had a bye yet sit the round out (``points.BYE_POINTS``).

Tables are then formed from the top: the best entrant not yet seated takes the nearest
entrants below that it has not met, so that entrants on equal points meet. Which tables are
possible is a search: it tries every way (nearest first) until the whole round is seated
with no pair that has met before; only when no such round exists, or the search spends its
budget, does it allow one rematch, then two, and so on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from cardtable.tournaments.standings import Round, Table

#: the search's budget: how many candidate tables it may look at per number of rematches
#: allowed (a round of 100 entrants at tables of 4 is seated in a few thousand)
SEARCH_BUDGET = 100_000

Met = Mapping[str, frozenset[str] | set[str]]


@dataclass(frozen=True)
class Pairing:
    """A round to play, and how many pairs of its tables had met before."""

    round: Round
    rematches: int


def table_sizes(n: int, size: int, min_size: int) -> tuple[list[int], int]:
    """The table sizes (largest first) for ``n`` entrants, and the number of byes."""
    if not 1 <= min_size <= size:
        raise ValueError(f"no tables of {min_size} to {size} players")
    for byes in range(n + 1):
        seated = n - byes
        if seated == 0:
            return [], byes
        tables = -(-seated // size)
        each, more = divmod(seated, tables)
        if each >= min_size:
            return [each + 1] * more + [each] * (tables - more), byes
    raise AssertionError("unreachable: every entrant a bye always fits")


def pick_byes(order: Sequence[str], count: int, had_bye: set[str] | frozenset[str]) -> list[str]:
    """The ``count`` lowest entrants who have not had a bye; the lowest of the rest after."""
    fresh = [e for e in reversed(order) if e not in had_bye]
    again = [e for e in reversed(order) if e in had_bye]
    return (fresh + again)[:count]


def pair_round(
    order: Sequence[str],
    met: Met,
    had_bye: set[str] | frozenset[str],
    size: int,
    min_size: int,
    budget: int = SEARCH_BUDGET,
) -> Pairing:
    """The next round for the entrants in ``order`` (standings order, best first, withdrawn
    entrants left out), given whom each has ``met`` and who ``had_bye``."""
    if len(set(order)) != len(order):
        raise ValueError("an entrant is listed twice")
    sizes, bye_count = table_sizes(len(order), size, min_size)
    byes = pick_byes(order, bye_count, had_bye)
    playing = [e for e in order if e not in byes]
    groups = seat_apart(playing, sizes, met, budget)
    tables = tuple(Table(g) for g in groups)
    return Pairing(Round(tables, tuple(byes)), sum(_rematches(g, met) for g in groups))


def seat_apart(
    playing: Sequence[str], sizes: Sequence[int], met: Met, budget: int = SEARCH_BUDGET
) -> list[tuple[str, ...]]:
    """Tables of ``sizes`` for ``playing`` (best first), each table's head joined by the
    nearest entrants below, with as few pairs that have ``met`` as the search can find."""
    for allowed in range(len(playing) + 1):
        search = _Search(met, budget)
        found = search.seat(list(playing), Counter(sizes), allowed)
        if found is not None:
            return found
        if search.spent:
            break
    return _seat_greedily(list(playing), list(sizes), met)


def _rematches(group: Sequence[str], met: Met) -> int:
    return sum(1 for i, a in enumerate(group) for b in group[i + 1 :] if b in met.get(a, ()))


class _Search:
    """The depth-first search for a seating with at most a given number of rematches."""

    def __init__(self, met: Met, budget: int) -> None:
        self.met = met
        self.left = budget
        self.spent = False

    def seat(
        self, rest: list[str], sizes: Counter[int], allowed: int
    ) -> list[tuple[str, ...]] | None:
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        for size in sorted((s for s in sizes if sizes[s] > 0), reverse=True):
            for picked, cost in self._groups(head, others, size - 1, allowed):
                chosen = set(picked)
                sizes[size] -= 1
                below = self.seat([o for o in others if o not in chosen], sizes, allowed - cost)
                sizes[size] += 1
                if below is not None:
                    return [(head, *picked), *below]
                if self.spent:
                    return None
        return None

    def _groups(
        self, head: str, others: list[str], k: int, allowed: int
    ) -> Iterator[tuple[list[str], int]]:
        """The ways to join ``k`` of ``others`` to ``head``, nearest first, with the
        rematches each brings, none over ``allowed``."""

        def grow(start: int, picked: list[str], cost: int) -> Iterator[tuple[list[str], int]]:
            if len(picked) == k:
                yield list(picked), cost
                return
            for i in range(start, len(others) - (k - len(picked)) + 1):
                self.left -= 1
                if self.left < 0:
                    self.spent = True
                    return
                new = others[i]
                extra = sum(1 for p in (head, *picked) if new in self.met.get(p, ()))
                if cost + extra > allowed:
                    continue
                picked.append(new)
                yield from grow(i + 1, picked, cost + extra)
                picked.pop()
                if self.spent:
                    return

        yield from grow(0, [], 0)


def _seat_greedily(playing: list[str], sizes: list[int], met: Met) -> list[tuple[str, ...]]:
    """A seating when the search gave up: each table from the top, its head joined by the
    entrants below that add the fewest rematches, nearest first."""
    rest = list(playing)
    groups = []
    for size in sizes:
        group = [rest.pop(0)]
        while len(group) < size:
            best = min(range(len(rest)), key=lambda i: (_rematches([*group, rest[i]], met), i))
            group.append(rest.pop(best))
        groups.append(tuple(group))
    return groups
