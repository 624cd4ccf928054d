"""Doublets for learning agents: 10 actions and a 746-number observation (docs/rl.md).

Actions: ``play waste`` (0), ``play r1`` .. ``play r7`` (1..7), ``flip`` (8), ``redeal`` (9).
Suits never matter in Doublets, so cards are encoded by value (A = 1 .. K = 13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardtable.games.doublets import KING, NON_KINGS, REDEALS, RESERVE_NAMES, RESERVES, card_value
from cardtable.rl.encoding import Encoding, Layout, Observe

#: the longest waste: every card but the 8 dealt face up
MAX_WASTE = 52 - 8
#: per card slot: empty, or a value 1..13
CARD_CODES = 1 + KING

ACTIONS = ("play waste", *(f"play {r}" for r in RESERVE_NAMES), "flip", "redeal")


def _layout() -> Layout:
    lay = Layout()
    lay.add("needed", KING - 1, "one-hot: the value the foundation takes next, 1..12")
    lay.add("reserves", RESERVES * CARD_CODES, "r1..r7, each one-hot: empty, 1..13")
    lay.add(
        "waste",
        MAX_WASTE * CARD_CODES,
        "the waste from its top card down, 44 slots, each one-hot: no card, 1..13",
    )
    lay.add("waste_size", 1, "cards in the waste / 44")
    lay.add("stock", 1, "cards in the stock / 44")
    lay.add("redeals_left", REDEALS + 1, "one-hot: 0, 1, 2 redeals left")
    lay.add("foundation", 1, "cards on the foundation / 48")
    lay.add(
        "unseen",
        KING,
        "per value 1..13: cards in none of the foundation, the waste and "
        "the reserves (so in the stock) / 4",
    )
    lay.add("over", 1, "1 once the game is over")
    return lay


LAYOUT = _layout()
_F = LAYOUT.by_name
# where each field starts, read once from the layout
_NEEDED, _RESERVES, _WASTE, _WASTE_SIZE, _STOCK, _REDEALS, _FOUNDATION, _UNSEEN, _OVER = (
    _F[f].start
    for f in (
        "needed",
        "reserves",
        "waste",
        "waste_size",
        "stock",
        "redeals_left",
        "foundation",
        "unseen",
        "over",
    )
)
#: one card slot's 14 numbers, by the value it holds (0: no card)
_SLOT = np.eye(CARD_CODES, dtype=np.float32)


class _Values(dict[Any, int]):
    """A card's value by its name (``card_value``), each name read once."""

    def __missing__(self, name: Any) -> int:
        value = self[name] = card_value(name)
        return value


_VALUE = _Values()
#: a card slot not written yet
_UNKNOWN = object()


class _Pile:
    """A list of card names as last seen (a stack: it grows and shrinks at its end), with
    its values counted into ``counts``; ``update`` says from where it changed."""

    __slots__ = ("names", "counts")

    def __init__(self, counts: list[int]) -> None:
        self.names: list[Any] = []
        self.counts = counts

    def update(self, names: list[Any]) -> int:
        """Take ``names`` (not the list seen last) as the pile now; returns how many cards at
        its start were kept."""
        old = self.names
        if len(names) > len(old) and names[: len(old)] == old:
            kept = len(old)
        elif len(names) < len(old) and old[: len(names)] == names:
            kept = len(names)
        else:
            kept = 0
        counts = self.counts
        for name in old[kept:]:
            counts[_VALUE[name]] -= 1
        for name in names[kept:]:
            counts[_VALUE[name]] += 1
        self.names = names
        return kept


class _DoubletsObserver:
    """``DoubletsEncoding.observer()``: the observation kept and rewritten where the view
    changed (a part of a view that is the very one of the view before is unchanged: views
    never change a part they handed out). The waste, top card first in the observation,
    lives in ``stack``: card ``j`` from the bottom at slot ``MAX_WASTE - 1 - j``, the slots
    from ``MAX_WASTE`` on empty, so the observation's waste is the window from
    ``MAX_WASTE - len(waste)``, and a card flipped or played writes one slot."""

    def __init__(self) -> None:
        self.out = np.zeros(LAYOUT.size, dtype=np.float32)
        self.stack = np.tile(_SLOT[0], 2 * MAX_WASTE)
        self.out[_WASTE : _WASTE + MAX_WASTE * CARD_CODES] = self.stack[MAX_WASTE * CARD_CODES :]
        #: the same numbers, written one at a time (a memoryview writes a float32 as numpy
        #: does, in half the time)
        self.put = self.out.data.cast("B").cast("f")
        #: per value, the cards seen (the reserves, the waste, the foundation); as written
        self.seen = [0] * (KING + 1)
        self.unseen = [-1] * (KING + 1)
        self.waste, self.foundation = _Pile(self.seen), _Pile(self.seen)
        self.reserves: list[Any] = [_UNKNOWN] * RESERVES
        self.needed = self.redeals = -1

    def __call__(self, view: Mapping[str, Any]) -> np.ndarray:
        out = self.put
        self.needed = _one_hot(out, _NEEDED - 1, self.needed, view["needed"])
        self.redeals = _one_hot(out, _REDEALS, self.redeals, view["redeals_left"])
        changed = False
        reserves, waste, foundation = view["reserves"], view["waste"], view["foundation"]
        if reserves is not self.reserves and reserves != self.reserves:
            self._reserves(reserves)
            changed = True
        if waste is not self.waste.names and waste != self.waste.names:
            self._waste(waste)
            changed = True
        if foundation is not self.foundation.names and foundation != self.foundation.names:
            self.foundation.update(foundation)
            out[_FOUNDATION] = len(foundation) / NON_KINGS
            changed = True
        out[_STOCK] = view["stock"] / MAX_WASTE
        out[_OVER] = bool(view["over"])
        if changed:
            seen, was = self.seen, self.unseen
            for v in range(1, KING + 1):
                if seen[v] != was[v]:
                    out[_UNSEEN + v - 1] = (4 - seen[v]) / 4
                    was[v] = seen[v]
        return self.out.copy()

    def _reserves(self, reserves: list[Any]) -> None:
        seen = self.seen
        for i, name in enumerate(reserves):
            old = self.reserves[i]
            if name != old:
                v = _VALUE[name]  # 0 for an empty reserve
                if old is not _UNKNOWN:
                    seen[_VALUE[old]] -= 1
                seen[v] += 1
                start = _RESERVES + i * CARD_CODES
                self.out[start : start + CARD_CODES] = _SLOT[v]
        self.reserves = reserves

    def _waste(self, waste: list[Any]) -> None:
        kept = self.waste.update(waste)
        stack = self.stack
        for j in range(kept, len(waste)):
            slot = (MAX_WASTE - 1 - j) * CARD_CODES
            stack[slot : slot + CARD_CODES] = _SLOT[_VALUE[waste[j]]]
        start = (MAX_WASTE - len(waste)) * CARD_CODES
        self.out[_WASTE : _WASTE + MAX_WASTE * CARD_CODES] = stack[
            start : start + MAX_WASTE * CARD_CODES
        ]
        self.put[_WASTE_SIZE] = len(waste) / MAX_WASTE


def _one_hot(out: memoryview[float], start: int, was: int, now: int) -> int:
    """Move a one-hot field's 1 from ``start + was`` to ``start + now``; returns ``now``."""
    if now != was:
        if was >= 0:
            out[start + was] = 0
        out[start + now] = 1
    return now


class DoubletsEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        return self.observer()(view)

    def observer(self) -> Observe:
        return _DoubletsObserver()

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # the foundation's share: 1.0 is a won game (48 cards), a typical loss is near 0.1
        return [result["foundation"] / NON_KINGS]
