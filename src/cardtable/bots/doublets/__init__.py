"""Doublets' own bots, and its greedy policy (the ``greedy`` bot's in Doublets).

- ``fair``: ``FairBot``, playing from its views alone with the solver on the cards it has
  seen (the game's advisor: the hints come from it).
- here: ``greedy``, the policy of the ``greedy`` bot.
"""

from __future__ import annotations

from cardtable.bots import BotLegal, BotView
from cardtable.games import doublets


def greedy(view: BotView, legal: BotLegal) -> str:
    """Play when possible (waste first); never pull a king into a reserve while a flip can wait."""
    need = view["needed"]
    top = doublets.card_value(view["waste"][-1]) if view["waste"] else 0
    can_flip = view["stock"] > 0 or (bool(view["waste"]) and view["redeals_left"] > 0)
    if top == need:
        return "play waste"
    values = list(map(doublets.card_value, view["reserves"]))
    if need in values and (top != doublets.KING or not can_flip):
        return f"play r{values.index(need) + 1}"
    if view["stock"]:
        return "flip"
    return "redeal" if "redeal" in legal else legal[0]
