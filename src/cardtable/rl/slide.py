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

from cardtable.games.slide import CELL_INDEX, CELL_NAMES, CELLS, DIRECTIONS, MAX_TARGET, ROUNDS
from cardtable.rl.encoding import Encoding, Layout, place_rewards, relative

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


class SlideEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        out = self.empty()
        n, viewer = view["players"], view["seat"]
        out[_F["phase"].start + PHASES.index(view["phase"])] = 1
        out[_F["round"].start] = view["round"] / ROUNDS
        out[_F["players"].start + n - 2] = 1
        if view["target"] is not None:
            out[_F["target"].start] = view["target"] / MAX_TARGET
        centre = _F["centre"].start
        shown = [0] * (VALUES + 1)
        for v in view["centre"]:
            out[centre + v - 1] += 1 / MAX_SEATS
            shown[v] += 1
        if view["choice"] is not None:
            out[_F["choice"].start + CELL_INDEX[view["choice"]]] = 1
        for seat in range(n):
            k = relative(seat, viewer, n)
            cells = _F[f"seat{k}.cells"].start
            out[_F[f"seat{k}.present"].start] = 1
            for i, cell in enumerate(c for row in view["grids"][seat] for c in row):
                if cell is None:
                    code = 0
                elif cell == "?":
                    code = 1
                else:
                    code = 1 + cell
                    shown[cell] += 1
                out[cells + i * CELL_CODES + code] = 1
            out[_F[f"seat{k}.chosen"].start] = view["chosen"][seat]
            out[_F[f"seat{k}.turn"].start] = view["turn"] == seat
            out[_F[f"seat{k}.first"].start] = view["first"] == seat
            out[_F[f"seat{k}.total"].start] = view["totals"][seat] / 100
        unseen = _F["unseen"].start
        for v in range(1, VALUES + 1):
            out[unseen + v - 1] = max(VALUES - shown[v], 0) / VALUES
        return out

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # from the places: +1 first .. -1 last, shared places share (encoding.place_rewards)
        return place_rewards(list(result["ranks"]))
