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
from cardtable.rl.encoding import Encoding, Layout, Observe, relative

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
# where each field starts, read once from the layout
_PILES, _TOPS, _HAND, _DRAW, _LEFT, _PLAYED, _MINIMUM, _PLAYERS, _OVER = (
    _F[f].start
    for f in (
        "piles",
        "tops",
        "hand",
        "draw_pile",
        "cards_left",
        "played_this_turn",
        "minimum",
        "players",
        "over",
    )
)
_SEAT = {
    part: tuple(_F[f"seat{k}.{part}"].start for k in range(MAX_SEATS))
    for part in ("present", "turn", "hand_size", "signals")
}
#: a signal's place in a seat's signals block, by pile and word
_SIGNAL = {
    (pile, said): p * len(SIGNALS) + s
    for p, pile in enumerate(PILES)
    for s, said in enumerate(SIGNALS)
}


class _Written:
    """One viewer's observation as last written, and what it showed."""

    def __init__(self, viewer: int | None, n: int) -> None:
        self.out = np.zeros(LAYOUT.size, dtype=np.float32)
        self.out[_PLAYERS + n - 1] = 1
        self.order = [relative(s, viewer, n) for s in range(n)]
        for k in self.order:
            self.out[_SEAT["present"][k]] = 1
        self.tops = [0] * len(PILES)  # (no pile's top written yet)
        self.hand: list[int] = []
        self.minimum = self.turn = -1
        self.sizes: list[int] | None = None
        self.signals: list[dict[str, str]] = [{} for _ in range(n)]


class _TheGameObserver:
    """``TheGameEncoding.observer()``: each viewer's last observation kept and rewritten
    where the view changed."""

    def __init__(self) -> None:
        self.players = 0
        self.written: dict[int | None, _Written] = {}

    def __call__(self, view: Mapping[str, Any]) -> np.ndarray:
        n = view["players"]
        if n != self.players:  # (another table's views: forget everything)
            self.players, self.written = n, {}
        w = self.written.get(view["seat"])
        if w is None:
            w = self.written[view["seat"]] = _Written(view["seat"], n)
        out = w.out
        self._piles(view["piles"], w)
        hand = view["hand"] or []
        if hand != w.hand:
            for c in w.hand:
                out[_HAND + c - LOW] = 0
            for c in hand:
                out[_HAND + c - LOW] = 1
            w.hand = list(hand)
        out[_DRAW] = view["draw_pile"] / len(CARDS)
        out[_LEFT] = view["cards_left"] / len(CARDS)
        out[_PLAYED] = min(view["played_this_turn"], MAX_HAND) / MAX_HAND
        minimum = min(max(view["minimum"], 1), MINIMUMS) - 1
        if minimum != w.minimum:
            if w.minimum >= 0:
                out[_MINIMUM + w.minimum] = 0
            out[_MINIMUM + minimum], w.minimum = 1, minimum
        out[_OVER] = bool(view["over"])
        self._seats(view, w)
        return out.copy()

    def _piles(self, piles: Mapping[str, int], w: _Written) -> None:
        out, tops = w.out, w.tops
        for p, name in enumerate(PILES):
            top = piles[name]
            if top != tops[p]:
                if tops[p]:
                    out[_PILES + p * TOPS + tops[p] - 1] = 0
                out[_PILES + p * TOPS + top - 1] = 1
                out[_TOPS + p] = top / TOPS
                tops[p] = top

    def _seats(self, view: Mapping[str, Any], w: _Written) -> None:
        out, order = w.out, w.order
        sizes, signals = view["hand_sizes"], view["signals"]
        if sizes != w.sizes:
            for s, k in enumerate(order):
                out[_SEAT["hand_size"][k]] = sizes[s] / MAX_HAND
            w.sizes = list(sizes)
        turn = view["turn"]
        turn = turn if isinstance(turn, int) and 0 <= turn < len(order) else -1
        if turn != w.turn:
            if w.turn >= 0:
                out[_SEAT["turn"][order[w.turn]]] = 0
            if turn >= 0:
                out[_SEAT["turn"][order[turn]]] = 1
            w.turn = turn
        if signals != w.signals:
            for s, k in enumerate(order):
                if signals[s] != w.signals[s]:
                    start = _SEAT["signals"][k]
                    out[start : start + len(PILES) * len(SIGNALS)] = 0
                    for pile, said in signals[s].items():
                        out[start + _SIGNAL[pile, said]] = 1
            w.signals = [dict(said) for said in signals]


class TheGameEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        return self.observer()(view)

    def observer(self) -> Observe:
        return _TheGameObserver()

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # cooperative: every seat gets the share of the 98 cards played (1.0 is a win)
        played = (len(CARDS) - result["cards_left"]) / len(CARDS)
        return [played] * len(result["scores"])
