"""Slide for learning agents: 56 actions and a 1,228-number observation (docs/rl.md).

Actions: ``reveal a1`` .. ``reveal d4`` (0..15, cells in reading order), then
``take V D`` for V in 1..10 and D in left, right, top, bottom (16 + 4 (V-1) + D).

The observation is laid out for six seats whatever the table (a policy serves every player
count); seats are counted from the viewer (block 0 is the viewer's own grid, block 1 the next
seat clockwise) and the blocks of seats a smaller table lacks are zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardtable.games.slide import (
    CELL_INDEX,
    CELL_NAMES,
    CELLS,
    DIRECTIONS,
    MAX_TARGET,
    ROUNDS,
    SIZE,
)
from cardtable.rl.encoding import (
    _F32,
    _JOIN,
    Encoding,
    FromViewer,
    Layout,
    Observe,
    place_rewards,
)

MAX_SEATS = 6
VALUES = 10
#: per cell: the hole, face down, or face up showing 1..10
CELL_CODES = 2 + VALUES
#: totals are read in hundreds; a total can pass the target by at most one deal's 160
TOTAL_HIGH = (MAX_TARGET + CELLS * VALUES) / 100

ACTIONS = (
    *(f"reveal {c}" for c in CELL_NAMES),
    *(f"take {v} {d}" for v in range(1, VALUES + 1) for d in DIRECTIONS),
)
PHASES = ("reveal", "take", "over")


def _layout() -> Layout:
    lay = Layout()
    lay.add("phase", 3, "one-hot: reveal, take, over")
    lay.add("round", 1, "round / 16")
    lay.add("players", MAX_SEATS - 1, "one-hot: 2, 3, 4, 5, 6 players")
    lay.add("target", 1, "the option target / 1000 (0: one deal)")
    lay.add("centre", VALUES, "per value 1..10: centre cards showing it / 6")
    lay.add("unseen", VALUES, "per value 1..10: cards not face up anywhere (grids, centre) / 10")
    lay.add("choice", CELLS, "one-hot: the viewer's own chosen reveal cell (a1..d4), if any")
    for k in range(MAX_SEATS):
        who = "the viewer" if k == 0 else f"the seat {k} after the viewer"
        lay.add(f"seat{k}.present", 1, f"1 when {who} is at the table")
        lay.add(
            f"seat{k}.cells",
            CELLS * CELL_CODES,
            f"{who}'s grid, cells a1..d4, each one-hot: hole, face down, 1..10",
        )
        lay.add(f"seat{k}.chosen", 1, f"1 when {who} has chosen its reveal")
        lay.add(f"seat{k}.turn", 1, f"1 when {who} is to take")
        lay.add(f"seat{k}.first", 1, f"1 when {who} holds the first-player token")
        lay.add(f"seat{k}.total", 1, f"{who}'s total so far / 100", high=TOTAL_HIGH)
    return lay


LAYOUT = _layout()
_F = LAYOUT.by_name
# where each field starts, read once from the layout
_PHASE, _ROUND, _PLAYERS, _TARGET = (_F[f].start for f in ("phase", "round", "players", "target"))
_CENTRE, _UNSEEN, _CHOICE = (_F[f].start for f in ("centre", "unseen", "choice"))
#: the fields before the seats', then each seat's (present, cells, chosen, turn, first, total)
_HEAD = _F["seat0.present"].start
_BLOCK = _F["seat1.present"].start - _HEAD
_CELLS, _CHOSEN, _TURN, _FIRST, _TOTAL = (
    _F[f"seat0.{part}"].start - _HEAD for part in ("cells", "chosen", "turn", "first", "total")
)
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
#: a cell's code as a view shows it: the hole None 0, face down "?" 1, face up v 1 + v
_CODE: dict[Any, int] = {None: 0, "?": 1, **{v: 1 + v for v in range(1, VALUES + 1)}}
#: one row's numbers
_ROW = SIZE * CELL_CODES


def _centre_shares() -> tuple[float, ...]:
    """``c`` cards of a value in the centre as the observation reads them: 1/6 added ``c``
    times in float32 (the sum as it was always written, to the last bit)."""
    acc, out = np.zeros(1, dtype=np.float32), [0.0]
    for _ in range(CELLS):
        acc[0] += 1 / MAX_SEATS
        out.append(float(acc[0]))
    return tuple(out)


_SHARE = _centre_shares()
#: a value's unseen number by how many of its cards are face up (grids and centre)
_UNSEEN_OF = tuple(max(VALUES - c, 0) / VALUES for c in range(MAX_SEATS * (CELLS + 1) + 1))
#: a cell not written yet (a row of them: a grid never seen)
_UNKNOWN = object()
_UNKNOWN_ROW = [_UNKNOWN] * SIZE


class _SlideObserver:
    """``SlideEncoding.observer()``. Everything but the viewer's own choice is the same for
    every viewer, so it is kept once, the seats in seat order (``seats``), and rewritten only
    where the view changed (a part of a view that is the very one of the view before is
    unchanged: views never change a part they handed out); each call copies it out in one
    copy, the seats counted from the viewer."""

    def __init__(self) -> None:
        self.players = 0

    def _start(self, n: int) -> None:
        self.players = n
        self.seats = np.zeros(LAYOUT.size, dtype=np.float32)
        self.seats[_PLAYERS + n - 2] = 1
        self.seats[_HEAD : _HEAD + n * _BLOCK : _BLOCK] = 1  # present
        self.grids: list[list[list[Any]]] | None = None
        self.rows: list[list[list[Any]] | None] = [None] * n
        self.phase: str | None = None
        self.round = self.turn = self.first = -1
        self.target: Any = -1
        self.centre: list[int] = []
        self.chosen: list[Any] = [None] * n  # (nothing written yet)
        self.totals: list[int] | None = None
        #: per value, the cards face up in the grids and the centre
        self.shown = [0] * (VALUES + 1)
        self.seats[_UNSEEN : _UNSEEN + VALUES] = 1  # (none face up yet)
        #: the same numbers, written one at a time (a memoryview writes a float32 as numpy
        #: does, in half the time)
        self.put = self.seats.data.cast("B").cast("f")
        #: ``FromViewer``'s pieces of each viewer's copy, joined here (a call fewer a step)
        self.pieces = FromViewer(self.seats, _HEAD, _BLOCK, n).pieces

    def __call__(self, view: Mapping[str, Any]) -> np.ndarray:
        n = view["players"]
        if n != self.players:  # (another table's views: start again)
            self._start(n)
        seats = self.put
        phase = view["phase"]
        if phase != self.phase:
            if self.phase is not None:
                seats[_PHASE + _PHASE_INDEX[self.phase]] = 0
            seats[_PHASE + _PHASE_INDEX[phase]], self.phase = 1, phase
        if view["round"] != self.round:
            self.round = view["round"]
            seats[_ROUND] = self.round / ROUNDS
        if view["target"] != self.target:
            self.target = view["target"]
            seats[_TARGET] = self.target / MAX_TARGET if self.target is not None else 0.0
        grids, centre = view["grids"], view["centre"]
        if grids is not self.grids:
            self._grids(grids)
        if centre != self.centre:
            self._centre(centre)
        chosen = view["chosen"]
        if chosen is not self.chosen:
            self._chosen(chosen)
        if view["totals"] != self.totals:
            self.totals = view["totals"]
            for s in range(n):
                seats[_HEAD + s * _BLOCK + _TOTAL] = self.totals[s] / 100
        turn, first = view["turn"], view["first"]
        if (-1 if turn is None else turn) != self.turn:
            self.turn = _flag(seats, _TURN, n, self.turn, turn)
        if (-1 if first is None else first) != self.first:
            self.first = _flag(seats, _FIRST, n, self.first, first)
        out = np.frombuffer(_JOIN(self.pieces[(view["seat"] or 0) % n]), _F32)
        if view["choice"] is not None:
            out[_CHOICE + CELL_INDEX[view["choice"]]] = 1
        return out

    def _chosen(self, chosen: list[bool]) -> None:
        was = self.chosen
        for s, now in enumerate(chosen):
            if now != was[s]:
                self.put[_HEAD + s * _BLOCK + _CHOSEN] = now
        self.chosen = chosen

    def _grids(self, grids: list[list[list[Any]]]) -> None:
        """Rewrite the cells that changed."""
        for s, rows in enumerate(grids):
            old = self.rows[s]
            if rows is old or rows == old:
                continue
            start = _HEAD + s * _BLOCK + _CELLS
            for r, row in enumerate(rows):
                was = old[r] if old is not None else _UNKNOWN_ROW
                if row != was:
                    self._cells(start + r * _ROW, row, was)
            self.rows[s] = rows
        self.grids = grids

    def _cells(self, start: int, row: list[Any], was: list[Any]) -> None:
        """Rewrite the cells of a row that changed (their codes, the values face up)."""
        seats, shown = self.put, self.shown
        for i, cell in enumerate(row):
            old = was[i]
            if cell is old or (cell == old and type(cell) is type(old)):
                continue
            if old is not _UNKNOWN:
                seats[start + i * CELL_CODES + _CODE[old]] = 0
                if type(old) is int:
                    shown[old] -= 1
                    seats[_UNSEEN + old - 1] = _UNSEEN_OF[shown[old]]
            seats[start + i * CELL_CODES + _CODE[cell]] = 1
            if type(cell) is int:
                shown[cell] += 1
                seats[_UNSEEN + cell - 1] = _UNSEEN_OF[shown[cell]]

    def _centre(self, centre: list[int]) -> None:
        """Count the centre's cards again."""
        seats, shown = self.put, self.shown
        for v in self.centre:
            seats[_CENTRE + v - 1] = 0
            shown[v] -= 1
            seats[_UNSEEN + v - 1] = _UNSEEN_OF[shown[v]]
        for v in centre:
            seats[_CENTRE + v - 1] = _SHARE[centre.count(v)]
            shown[v] += 1
            seats[_UNSEEN + v - 1] = _UNSEEN_OF[shown[v]]
        self.centre = centre


def _flag(seats: memoryview[float], at: int, n: int, was: int, seat: Any) -> int:
    """Set a one-seat flag (the turn, the first player) in ``seat``'s block, 0 in the
    others; returns the seat flagged now (-1: none)."""
    now = seat if isinstance(seat, int) and 0 <= seat < n else -1
    if now != was:
        if was >= 0:
            seats[_HEAD + was * _BLOCK + at] = 0
        if now >= 0:
            seats[_HEAD + now * _BLOCK + at] = 1
    return now


class SlideEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        return self.observer()(view)

    def observer(self) -> Observe:
        # (its bound method: Python calls one as a function, an object's ``__call__`` through
        # a slot, about 0.2 µs more on every step)
        return _SlideObserver().__call__

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # from the places: +1 first .. -1 last, shared places share (encoding.place_rewards)
        return place_rewards(list(result["ranks"]))
