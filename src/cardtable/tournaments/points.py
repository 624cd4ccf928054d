"""What a place at a table is worth.

A table of n spreads its points over the places evenly, from 1 for the first to 0 for the
last: place p earns (n - p) / (n - 1). A two-player game is then chess's 1, ½ and 0, and a
table's points add up to n / 2 whatever its size, so that tables of 3 and of 4 in one round
weigh the same per player. Tied places share the points of the places they hold. A bye earns
the average, ½: a whole point (chess's bye) would be worth more than most places at a table
of six.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

#: what an entrant left out of a round earns (the average a seat earns at any table)
BYE_POINTS = Fraction(1, 2)


def place_points(ranks: Sequence[int]) -> list[Fraction]:
    """Each seat's points from its rank (1 for the best; equal ranks share, as ``ranks_of``
    gives them: 1, 1, 3)."""
    n = len(ranks)
    if n < 2:
        raise ValueError("a table of one earns no place points")
    worth = [Fraction(n - place, n - 1) for place in range(1, n + 1)]
    points = []
    for rank in ranks:
        tied = sum(1 for r in ranks if r == rank)
        if not 1 <= rank <= n - tied + 1:
            raise ValueError(f"ranks {list(ranks)} are not places at a table of {n}")
        points.append(sum(worth[rank - 1 : rank - 1 + tied], Fraction(0)) / tied)
    return points


def absent_last(ranks: Sequence[int], absent: Sequence[bool]) -> list[int]:
    """The ranks with every absent seat (a no-show, or one who left: a bot finished for
    them) after every present one: present seats keep their order among themselves, absent
    seats share the last place."""
    present = [r for r, gone in zip(ranks, absent, strict=True) if not gone]
    out = []
    for rank, gone in zip(ranks, absent, strict=True):
        if gone:
            out.append(len(present) + 1)
        else:
            out.append(1 + sum(1 for r in present if r < rank))
    return out
