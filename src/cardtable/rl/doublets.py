"""Doublets for learning agents: 10 actions and a 746-number observation (docs/rl.md).

Actions: ``play waste`` (0), ``play r1`` .. ``play r7`` (1..7), ``flip`` (8), ``redeal`` (9).
Suits never matter in Doublets, so cards are encoded by value (A = 1 .. K = 13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardtable.games.doublets import KING, NON_KINGS, REDEALS, RESERVE_NAMES, RESERVES, card_value
from cardtable.rl.encoding import Encoding, Layout

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


class DoubletsEncoding(Encoding):
    actions = ACTIONS
    layout = LAYOUT

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        out = self.empty()
        out[_F["needed"].start + view["needed"] - 1] = 1
        seen = [0] * (KING + 1)
        reserves = _F["reserves"].start
        for i, name in enumerate(view["reserves"]):
            v = card_value(name)  # 0 for an empty reserve
            seen[v] += 1
            out[reserves + i * CARD_CODES + v] = 1
        waste = _F["waste"].start
        top_first = list(reversed(view["waste"]))
        for i in range(MAX_WASTE):
            v = card_value(top_first[i]) if i < len(top_first) else 0
            seen[v] += 1
            out[waste + i * CARD_CODES + v] = 1
        for name in view["foundation"]:
            seen[card_value(name)] += 1
        out[_F["waste_size"].start] = len(top_first) / MAX_WASTE
        out[_F["stock"].start] = view["stock"] / MAX_WASTE
        out[_F["redeals_left"].start + view["redeals_left"]] = 1
        out[_F["foundation"].start] = len(view["foundation"]) / NON_KINGS
        unseen = _F["unseen"].start
        for v in range(1, KING + 1):
            out[unseen + v - 1] = (4 - seen[v]) / 4
        out[_F["over"].start] = bool(view["over"])
        return out

    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        # the foundation's share: 1.0 is a won game (48 cards), a typical loss is near 0.1
        return [result["foundation"] / NON_KINGS]
