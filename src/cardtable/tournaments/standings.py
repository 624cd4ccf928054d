"""The standings over the rounds played: points, then the tie-breaks, then the entry order.

Tie-breaks, in order (written for players in ``docs/tournaments.md``):

1. **Buchholz**: the strength of the opposition. For each game an entrant played, the average
   points of that table's other players (their points in the whole tournament so far); summed
   over the entrant's games. A bye adds nothing.
2. **Wins**: how many tables the entrant finished first at (a shared first counts).
3. **Entry order**: who entered first (an entrant's index in the list of entrants).

The last one never ties, so every entrant has a place of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from cardtable.tournaments.points import BYE_POINTS, place_points


@dataclass(frozen=True)
class Table:
    """One table of a round: the entrants seated (in seat order) and, once over, their ranks."""

    players: tuple[str, ...]
    ranks: tuple[int, ...] | None = None

    @property
    def over(self) -> bool:
        return self.ranks is not None

    def points(self) -> dict[str, Fraction]:
        if self.ranks is None:
            return {}
        return dict(zip(self.players, place_points(self.ranks), strict=True))


@dataclass(frozen=True)
class Round:
    """A round: its tables and the entrants who sat it out with a bye."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return all(t.over for t in self.tables)

    def seated(self) -> list[str]:
        return [p for t in self.tables for p in t.players]


@dataclass
class Standing:
    """One entrant's line of the standings."""

    entrant: str
    place: int = 0
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    wins: int = 0
    games: int = 0
    byes: int = 0
    #: per round: the points earned (None: not in that round, or its table not over yet)
    by_round: list[Fraction | None] = field(default_factory=list)


def points_of(
    rounds: Sequence[Round], extra: Mapping[str, Fraction] | None = None
) -> dict[str, Fraction]:
    """Every entrant's points over the finished tables and the byes of ``rounds``."""
    total: dict[str, Fraction] = dict(extra or {})
    for rnd in rounds:
        for bye in rnd.byes:
            total[bye] = total.get(bye, Fraction(0)) + BYE_POINTS
        for table in rnd.tables:
            for who, pts in table.points().items():
                total[who] = total.get(who, Fraction(0)) + pts
    return total


def standings(entrants: Sequence[str], rounds: Sequence[Round]) -> list[Standing]:
    """The standings, best first, of ``entrants`` (in entry order) after ``rounds`` (tables
    still being played count for nothing yet)."""
    rows = {e: Standing(e) for e in entrants}
    points = points_of(rounds)
    for rnd in rounds:
        for row in rows.values():
            row.by_round.append(None)
        for bye in rnd.byes:
            rows[bye].byes += 1
            rows[bye].by_round[-1] = BYE_POINTS
        for table in rnd.tables:
            _score_table(rows, table, points)
    for row in rows.values():
        row.points = points.get(row.entrant, Fraction(0))
    order = {e: i for i, e in enumerate(entrants)}
    ranked = sorted(
        rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.wins, order[r.entrant])
    )
    for place, row in enumerate(ranked, start=1):
        row.place = place
    return ranked


def _score_table(rows: dict[str, Standing], table: Table, points: Mapping[str, Fraction]) -> None:
    if table.ranks is None:
        return
    earned = table.points()
    for who, rank in zip(table.players, table.ranks, strict=True):
        row = rows[who]
        others = [points.get(o, Fraction(0)) for o in table.players if o != who]
        row.buchholz += sum(others, Fraction(0)) / len(others)
        row.games += 1
        row.wins += rank == 1
        row.by_round[-1] = earned[who]
