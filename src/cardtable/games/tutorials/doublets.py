"""Doublets' tutorial: doubling mod 13, kings, and the three passes through the stock.

Played alone on a deal the suggested line wins, with a king in the reserves and both redeals
used. The suggestion: a reserve card that fits (an emptied reserve takes the waste's top
card, so the waste moves on), else the waste's card, else flip, else redeal.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.protocol import Action, State, View
from cardtable.core.tutorial import LEARNER, Tutorial
from cardtable.core.words import Text, translatable
from cardtable.games.doublets import card_symbol, card_value, needed_words, rank_name, source_words

_, _n = translatable("doublets")


class DoubletsTutorial(Tutorial):
    game = "doublets"
    seed = 4
    seats = (LEARNER,)

    def suggest(self, state: State, seat: int) -> Action | None:
        legal = state.legal(seat)
        plays = [a for a in legal if a.startswith("play ")]
        reserves = [a for a in plays if a != "play waste"]
        for choice in (reserves, plays, legal):
            if choice:
                return choice[0]
        return None

    def explain(self, view: View, suggest: Action | None, moves: int) -> list[Text]:
        if view["over"]:
            return [self._ending(view)]
        said: list[Text] = []
        if moves == 0:
            said.append(
                _(
                    "The foundation takes the card worth double its top card, minus 13 when "
                    "that is more than 13. Suits never matter."
                )
            )
        if suggest is None:
            return said
        if suggest.startswith("play "):
            said.append(self._play(view, suggest))
        elif suggest == "flip":
            said.append(self._flip(view, moves))
        else:
            # TRANSLATORS: the pass about to start through the stock: 2 or 3 (of 3)
            said.append(
                _(
                    "The stock is empty: turn the waste over to go through it again. "
                    "This is pass {n} of 3.",
                    n=4 - view["redeals_left"],
                )
            )
        if any(card and card_value(card) == 13 for card in view["reserves"]):
            said.append(
                _("A king can never be played: a reserve it fills stays blocked to the end.")
            )
        return said

    def _play(self, view: View, action: Action) -> Text:
        top = card_value(view["foundation"][-1])
        where = action.split(" ")[1]
        card = view["waste"][-1] if where == "waste" else view["reserves"][int(where[1:]) - 1]
        double = 2 * top
        args: dict[str, Any] = {
            "card": card_symbol(card),
            "source": source_words(where),
            "top": rank_name(top),
            "double": double,
            "need": rank_name(view["needed"]),
        }
        if double > 13:
            return _(
                "Play {card} from {source}: {top} doubled is {double}, minus 13 leaves {need}.",
                **args,
            )
        return _("Play {card} from {source}: {top} doubled is {need}.", **args)

    def _flip(self, view: View, moves: int) -> Text:
        need = needed_words(rank_name(view["needed"]))
        if moves < 3:
            return _(
                "No card fits: the foundation needs {need}. Flip the stock's top card onto "
                "the waste; only the waste's top card can be played.",
                need=need,
            )
        return _("No card fits: the foundation needs {need}. Flip the next card.", need=need)

    def _ending(self, view: View) -> Text:
        if view["result"].get("won"):
            return _("You won: all 48 cards that can be played are on the foundation.")
        return _n(
            "No move is left: {n} card reached the foundation. The stock's order and the "
            "kings decide many deals.",
            "No move is left: {n} cards reached the foundation. The stock's order and the "
            "kings decide many deals.",
            view["score"],
        )
