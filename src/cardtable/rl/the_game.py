"""The Game for learning agents: 409 actions and a 589-number observation (docs/rl.md).

Actions: ``play C P`` for C in 2..99 and P in up1, up2, down1, down2 (4 (C-2) + P, 0..391),
``end`` (392), then the pile signals ``signal P S`` for S in avoid, small, good, clear
(393 + 4 P + S, 393..408).

The observation is laid out for five seats whatever the table; seats are counted from the
viewer (block 0 is the viewer's own) and the blocks of seats a smaller table lacks are zero.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from cardtable.games.the_game import CARDS, HAND_SIZE, PILES, SIGNALS
from cardtable.rl.encoding import (
    _F32,
    _INT8,
    _JOIN,
    MASK_KEPT_UP_TO,
    MASKS_KEPT,
    Encoding,
    FromViewer,
    Layout,
    Observe,
)

MAX_SEATS = 5
MAX_HAND = max(HAND_SIZE.values())
LOW = CARDS[0]
#: a pile's top is 1..100 (up piles start at 1, down piles at 100)
TOPS = 100
MINIMUMS = 3
SIGNAL_WORDS = (*SIGNALS, "clear")

#: interned, as the game's own texts are: its legal lists then hold these very objects, and
#: the step's look-ups and its legality check compare them by identity
ACTIONS = tuple(
    sys.intern(a)
    for a in (
        *(f"play {c} {p}" for c in CARDS for p in PILES),
        "end",
        *(f"signal {p} {s}" for p in PILES for s in SIGNAL_WORDS),
    )
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
#: the fields before the seats', then each seat's (present, turn, hand_size, signals)
_HEAD = _F["seat0.present"].start
_BLOCK = _F["seat1.present"].start - _HEAD
_TURN, _HAND_SIZE, _SIGNALS = (
    _F[f"seat0.{part}"].start - _HEAD for part in ("turn", "hand_size", "signals")
)
_SAID = len(PILES) * len(SIGNALS)
_CARDS = len(CARDS)
#: a seat's signals block as bytes (float32), by its signal on each pile in PILES order
#: (None: none): a changed seat's block is written in one copy
_SIGNAL_BLOCKS = {
    said: np.array([float(s == word) for s in said for word in SIGNALS], dtype=np.float32).tobytes()
    for said in itertools.product((None, *SIGNALS), repeat=len(PILES))
}
#: where the hand's numbers lie in the observation, in bytes
_HAND_BYTES = slice(4 * _HAND, 4 * (_HAND + _CARDS))


class _TheGameObserver:
    """``TheGameEncoding.observer()``. Everything but the viewer's hand is the same for every
    viewer, so it is kept once, the seats in seat order (``kept``), and each viewer's hand
    apart (a seat's own, so a new viewer rewrites none); both are rewritten only where the
    view changed (a part of a view that is the very one of the view before is unchanged:
    views never change a part they handed out), and joined in one copy, the seats counted
    from the viewer."""

    def __init__(self) -> None:
        self.players = 0

    def _start(self, n: int) -> None:
        self.players = n
        self.kept = np.zeros(LAYOUT.size, dtype=np.float32)
        self.kept[_PLAYERS + n - 1] = 1
        self.kept[_HEAD : _HEAD + n * _BLOCK : _BLOCK] = 1  # present
        #: the same numbers, written one at a time (a memoryview writes a float32 as numpy
        #: does, in half the time)
        self.raw = self.kept.data.cast("B")
        self.put = self.raw.cast("f")
        #: each viewer's hand (the spectator's last: none) as written, as a set too, and its
        #: numbers
        self.hands: list[list[int]] = [[] for _ in range(n + 1)]
        self.hand_sets: list[set[int]] = [set() for _ in range(n + 1)]
        hands = [np.zeros(_CARDS, dtype=np.float32) for _ in range(n + 1)]
        self.hand_puts = [h.data.cast("B").cast("f") for h in hands]
        #: the pieces each viewer's copy is joined from (views of the arrays' memory, so they
        #: follow their changes): ``FromViewer``'s, the viewer's hand put in
        turned = FromViewer(self.kept, _HEAD, _BLOCK, n).pieces
        self.pieces = [
            (first[: _HAND_BYTES.start], h.data.cast("B"), first[_HAND_BYTES.stop :], *rest)
            for (first, *rest), h in zip([*turned, turned[0]], hands, strict=True)
        ]
        self.piles: Mapping[str, int] = {}
        self.tops = [0] * len(PILES)  # (no pile's top written yet)
        self.minimum = self.turn = -1
        self.counts: tuple[Any, ...] = ()
        self.sizes = [-1] * n  # (nothing written yet)
        self.signals: list[dict[str, str]] = [{} for _ in range(n)]

    def __call__(self, view: Mapping[str, Any]) -> np.ndarray:
        n = view["players"]
        if n != self.players:  # (another table's views: start again)
            self._start(n)
        piles = view["piles"]
        if piles is not self.piles:  # (views share unchanged parts; ``_piles`` compares)
            self._piles(piles)
        counts = (
            view["draw_pile"],
            view["cards_left"],
            view["played_this_turn"],
            view["minimum"],
            view["over"],
        )
        if counts != self.counts:
            self._counts(counts)
        # (each seat's hand size, turn and signals; a call to ``_seats`` written out)
        sizes = view["hand_sizes"]
        if sizes != self.sizes:
            self._sizes(sizes)
        turn = view["turn"]
        if (-1 if turn is None else turn) != self.turn:
            self._turn(turn)
        signals = view["signals"]
        if signals is not self.signals:  # (``_all_signals`` compares seat by seat)
            self._all_signals(signals)
        seat = view["seat"]
        v = n if seat is None else seat % n  # (the spectator's hand: none, kept last)
        hand = view["hand"] or []
        if hand != self.hands[v]:
            # only the cards that came or went (found in C, the set of the hand written kept),
            # of the eight or so
            put, now = self.hand_puts[v], set(hand)
            for c in now ^ self.hand_sets[v]:
                put[c - LOW] = c in now
            self.hands[v], self.hand_sets[v] = hand, now
        return np.frombuffer(_JOIN(self.pieces[v]), _F32)

    def _counts(self, counts: tuple[int, int, int, int, bool]) -> None:
        """The draw pile, the cards left, the cards played this turn, the minimum, the end."""
        kept = self.put
        draw, left, played, minimum, over = self.counts = counts
        kept[_DRAW] = draw / _CARDS
        kept[_LEFT] = left / _CARDS
        # (``min(played, MAX_HAND)`` and ``min(max(minimum, 1), MINIMUMS) - 1`` written out:
        # two calls of builtins fewer on most steps)
        kept[_PLAYED] = (played if played < MAX_HAND else MAX_HAND) / MAX_HAND
        minimum = 0 if minimum <= 1 else (minimum if minimum < MINIMUMS else MINIMUMS) - 1
        if minimum != self.minimum:
            if self.minimum >= 0:
                kept[_MINIMUM + self.minimum] = 0
            kept[_MINIMUM + minimum], self.minimum = 1, minimum
        kept[_OVER] = bool(over)

    def _piles(self, piles: Mapping[str, int]) -> None:
        kept, tops = self.put, self.tops
        for p, name in enumerate(PILES):
            top = piles[name]
            if top != tops[p]:
                if tops[p]:
                    kept[_PILES + p * TOPS + tops[p] - 1] = 0
                kept[_PILES + p * TOPS + top - 1] = 1
                kept[_TOPS + p] = top / TOPS
                tops[p] = top
        self.piles = piles

    def _all_signals(self, signals: list[dict[str, str]]) -> None:
        was = self.signals
        for s in range(self.players):
            now = signals[s]
            # (a seat whose signals did not change keeps its dict from view to view)
            if now is not was[s] and now != was[s]:
                at = 4 * (_HEAD + s * _BLOCK + _SIGNALS)
                said = now.get  # (the key's four look-ups written out: cheaper than a map)
                block = _SIGNAL_BLOCKS[said("up1"), said("up2"), said("down1"), said("down2")]
                self.raw[at : at + 4 * _SAID] = block
        self.signals = signals  # (a view's own: views never change them)

    def _sizes(self, sizes: list[int]) -> None:
        kept, was = self.put, self.sizes
        for s in range(self.players):
            if sizes[s] != was[s]:
                kept[_HEAD + s * _BLOCK + _HAND_SIZE] = sizes[s] / MAX_HAND
        self.sizes = sizes

    def _turn(self, turn: int | None) -> None:
        kept = self.put
        turn = turn if isinstance(turn, int) and 0 <= turn < self.players else -1
        if self.turn >= 0:
            kept[_HEAD + self.turn * _BLOCK + _TURN] = 0
        if turn >= 0:
            kept[_HEAD + turn * _BLOCK + _TURN] = 1
        self.turn = turn


#: a seat's signal moves, last in its legal list: three a pile whatever its signals, the
#: first on up1 ("small" when its signal there is "avoid")
_TAIL = 3 * len(PILES)
_TAIL_HEADS = ("signal up1 avoid", "signal up1 small")
#: the first signal move's index: every play's (and "end"'s) lies below it
_SIGNALS_AT = ACTIONS.index("signal up1 avoid")
#: the signals' part of the mask (from ``_SIGNALS_AT``) of a seat's signal moves, by the
#: moves (the same for every table: shared); b"" for a tail that is not all signal moves
_TAIL_MASKS: dict[tuple[str, ...], bytes] = {}


class TheGameEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        #: the plays (and "end") of the last long legal list, and their part of its mask
        self._plays: list[str] = []
        self._head = bytes(_SIGNALS_AT)

    def mask(self, legal: Iterable[str]) -> np.ndarray:
        """A legal list is the plays (and "end"), then, unless the talk limit took them, the
        seat's twelve signal moves, whose indices lie above the plays': its mask is the plays'
        part joined to the signals' part, each kept, the plays' while they are the same (a
        signal changes none: about half the steps), the signals' by the moves. (Here, not in
        ``_mask``: one Python call fewer on every step's path.)"""
        if type(legal) is not list:
            return super().mask(legal)  # (as a list)
        if not legal:  # (a seat not to act, every seat once over: the plays kept stay)
            return np.zeros(len(ACTIONS), _INT8)
        if len(legal) >= _TAIL and legal[-_TAIL] in _TAIL_HEADS:
            plays, tail = legal[:-_TAIL], tuple(legal[-_TAIL:])
        else:
            plays, tail = legal, ()
        if plays != self._plays and not self._keep_plays(plays):
            return super()._mask(legal)  # (a signal move among the plays: not ``legal``'s shape)
        said = _TAIL_MASKS.get(tail)
        if said is None:
            if len(_TAIL_MASKS) >= MASKS_KEPT:
                _TAIL_MASKS.clear()
            said = super()._mask(tail).tobytes()
            said = _TAIL_MASKS[tail] = b"" if any(said[:_SIGNALS_AT]) else said[_SIGNALS_AT:]
        if not said:
            return super()._mask(legal)
        # (one C call joins the parts into the fresh array's memory; the type by position: a
        # keyword is parsed each call)
        return np.frombuffer(_JOIN((self._head, said)), _INT8)

    def _keep_plays(self, plays: list[str]) -> bool:
        """Write and keep the plays' part of the mask; False if one is a signal move."""
        hot, index = bytearray(_SIGNALS_AT), self._index
        try:
            for a in plays:
                hot[index[a]] = 1
        except IndexError:
            return False
        # (a copy: the caller may change its list)
        self._plays, self._head = plays.copy(), bytes(hot)
        return True

    def _mask(self, legal: Iterable[str]) -> np.ndarray:
        # (``mask`` and ``kept_mask`` come here: a long list goes the way of ``mask`` above)
        if type(legal) is not list:
            legal = list(legal)
        if len(legal) > MASK_KEPT_UP_TO:
            return self.mask(legal)
        return super()._mask(legal)

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        return self.observer()(view)

    def observer(self) -> Observe:
        # (its bound method: Python calls one as a function, an object's ``__call__`` through
        # a slot, about 0.2 µs more on every step)
        return _TheGameObserver().__call__

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # cooperative: every seat gets the share of the 98 cards played (1.0 is a win)
        played = (len(CARDS) - result["cards_left"]) / len(CARDS)
        return [played] * len(result["scores"])
