"""The Game for learning agents: 409 actions and a 589-number observation (docs/rl.md).

Actions: ``play C P`` for C in 2..99 and P in up1, up2, down1, down2 (4 (C-2) + P, 0..391),
``end`` (392), then the pile signals ``signal P S`` for S in avoid, small, good, clear
(393 + 4 P + S, 393..408).

The observation is laid out for five seats whatever the table; seats are counted from the
viewer (block 0 is the viewer's own) and the blocks of seats a smaller table lacks are zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardtable.games.the_game import CARDS, HAND_SIZE, PILES, SIGNALS
from cardtable.rl.encoding import Encoding, Layout, relative

MAX_SEATS = 5
MAX_HAND = max(HAND_SIZE.values())
LOW = CARDS[0]
#: a pile's top is 1..100 (up piles start at 1, down piles at 100)
TOPS = 100
MINIMUMS = 3
SIGNAL_WORDS = (*SIGNALS, "clear")

ACTIONS = (
    *(f"play {c} {p}" for c in CARDS for p in PILES),
    "end",
    *(f"signal {p} {s}" for p in PILES for s in SIGNAL_WORDS),
)


def _layout() -> Layout:
    lay = Layout()
    lay.add("piles", len(PILES) * TOPS, "up1, up2, down1, down2, each one-hot: its top 1..100")
    lay.add("tops", len(PILES), "up1, up2, down1, down2: the top card / 100")
    lay.add("hand", len(CARDS), "per card 2..99: 1 when it is in the viewer's hand")
    lay.add("draw_pile", 1, "cards in the draw pile / 98")
    lay.add("cards_left", 1, "cards not played (hands and draw pile) / 98")
    lay.add("played_this_turn", 1, "cards the seat to move has played this turn / 8")
    lay.add("minimum", MINIMUMS, "one-hot: the seat to move must play 1, 2, 3 cards this turn")
    lay.add("players", MAX_SEATS, "one-hot: 1, 2, 3, 4, 5 players")
    lay.add("over", 1, "1 once the game is over")
    for k in range(MAX_SEATS):
        who = "the viewer" if k == 0 else f"the seat {k} after the viewer"
        lay.add(f"seat{k}.present", 1, f"1 when {who} is at the table")
        lay.add(f"seat{k}.turn", 1, f"1 when it is {who}'s turn")
        lay.add(f"seat{k}.hand_size", 1, f"cards in {who}'s hand / 8")
        lay.add(
            f"seat{k}.signals",
            len(PILES) * len(SIGNALS),
            f"{who}'s signals: up1, up2, down1, down2, each one-hot avoid, small, good "
            "(all 0: none)",
        )
    return lay


LAYOUT = _layout()
_F = LAYOUT.by_name


class TheGameEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        out = self.empty()
        n, viewer = view["players"], view["seat"]
        piles, tops = _F["piles"].start, _F["tops"].start
        for p, name in enumerate(PILES):
            top = view["piles"][name]
            out[piles + p * TOPS + top - 1] = 1
            out[tops + p] = top / TOPS
        hand = _F["hand"].start
        for c in view["hand"] or ():
            out[hand + c - LOW] = 1
        out[_F["draw_pile"].start] = view["draw_pile"] / len(CARDS)
        out[_F["cards_left"].start] = view["cards_left"] / len(CARDS)
        out[_F["played_this_turn"].start] = min(view["played_this_turn"], MAX_HAND) / MAX_HAND
        out[_F["minimum"].start + min(max(view["minimum"], 1), MINIMUMS) - 1] = 1
        out[_F["players"].start + n - 1] = 1
        out[_F["over"].start] = bool(view["over"])
        for seat in range(n):
            k = relative(seat, viewer, n)
            out[_F[f"seat{k}.present"].start] = 1
            out[_F[f"seat{k}.turn"].start] = view["turn"] == seat
            out[_F[f"seat{k}.hand_size"].start] = view["hand_sizes"][seat] / MAX_HAND
            signals = _F[f"seat{k}.signals"].start
            for pile, said in view["signals"][seat].items():
                out[signals + PILES.index(pile) * len(SIGNALS) + SIGNALS.index(said)] = 1
        return out

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # cooperative: every seat gets the share of the 98 cards played (1.0 is a win)
        played = (len(CARDS) - result["cards_left"]) / len(CARDS)
        return [played] * len(result["scores"])
