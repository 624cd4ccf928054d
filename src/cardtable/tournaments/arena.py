"""An arena (lichess's idea): for a fixed time, whoever finishes a game is seated again at
once with others waiting near their score; points by place, doubled on a streak.

``seat_waiting`` is called whenever someone starts waiting (and on a short tick): it seats
the waiting entrants, best first, at tables as even as ``swiss.table_sizes`` makes them,
each entrant kept away from the players of its last game where the others allow it. While
fewer than a full table wait, they wait on, unless ``flush`` says that someone has waited
long enough to sit at a smaller table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from cardtable.tournaments.points import place_points
from cardtable.tournaments.standings import Round, Standing
from cardtable.tournaments.swiss import Met, seat_apart, table_sizes

#: how many first places in a row put an entrant on a streak: its next games count double
STREAK = 2


def seat_waiting(
    waiting: Sequence[str],
    points: Mapping[str, Fraction],
    last_opponents: Met,
    size: int,
    min_size: int,
    flush: bool = False,
) -> tuple[list[tuple[str, ...]], list[str]]:
    """The tables to start now from ``waiting`` (in the order they began to wait), and the
    entrants who wait on."""
    if len(waiting) < size and not (flush and len(waiting) >= min_size):
        return [], list(waiting)
    position = {e: i for i, e in enumerate(waiting)}
    order = sorted(waiting, key=lambda e: (-points.get(e, Fraction(0)), position[e]))
    sizes, left_out = table_sizes(len(order), size, min_size)
    seated, waits = order[: len(order) - left_out], order[len(order) - left_out :]
    tables = seat_apart(seated, sizes, last_opponents, budget=20_000)
    return tables, sorted(waits, key=position.__getitem__)


def arena_points(games: Sequence[tuple[Fraction, bool]], streaks: bool = True) -> list[Fraction]:
    """The points each of an entrant's games counts for, from its place points and whether
    it came first, in the order played: doubled while the entrant is on a streak (``STREAK``
    first places in a row before it; a game that is not a first place ends the streak)."""
    awarded = []
    run = 0
    for earned, first in games:
        awarded.append(earned * 2 if streaks and run >= STREAK else earned)
        run = run + 1 if first else 0
    return awarded


def arena_standings(
    entrants: Sequence[str], rounds: Sequence[Round], streaks: bool = True
) -> list[Standing]:
    """The arena's standings, best first: points (``arena_points`` over each entrant's
    finished games, in the order they were seated), then first places, then entry order
    (an arena has no rounds: ``by_round`` stays empty, and no Buchholz)."""
    games: dict[str, list[tuple[Fraction, bool]]] = {e: [] for e in entrants}
    for rnd in rounds:
        for table in rnd.tables:
            if table.ranks is None:
                continue
            for who, earned, rank in zip(
                table.players, place_points(table.ranks), table.ranks, strict=True
            ):
                games[who].append((earned, rank == 1))
    rows = []
    for e in entrants:
        played = games[e]
        row = Standing(e, games=len(played), wins=sum(1 for _, first in played if first))
        row.points = sum(arena_points(played, streaks), Fraction(0))
        rows.append(row)
    order = {e: i for i, e in enumerate(entrants)}
    rows.sort(key=lambda r: (-r.points, -r.wins, order[r.entrant]))
    for place, row in enumerate(rows, start=1):
        row.place = place
    return rows


def on_streak(entrant: str, rounds: Sequence[Round]) -> bool:
    """Whether the entrant's next game counts double: ``STREAK`` first places in a row."""
    run = 0
    for rnd in rounds:
        for table in rnd.tables:
            if table.ranks is not None and entrant in table.players:
                run = run + 1 if table.ranks[table.players.index(entrant)] == 1 else 0
    return run >= STREAK
