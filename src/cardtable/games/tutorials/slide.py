"""Slide's tutorial: the reveal, the draft, the slide, and the cancelling of pairs at the end.

The learner plays against two greedy bots on a deal where the suggested line wins. The
suggestion is the greedy bot's own rule, read from the learner's view: reveal the face-down
cell that leaves the most ways to push a card in; take the card and push that leaves the
lowest sum of face-up cards without an equal neighbour.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.protocol import Action, State, View, ordinal
from cardtable.core.tutorial import LEARNER, Tutorial
from cardtable.core.words import Text, translatable
from cardtable.games.slide import (
    CELL_INDEX,
    CELL_NAMES,
    PUSHES,
    greedy_reveal,
    greedy_take,
    push,
    unpaired_sum,
)

_, _n = translatable("slide")


def flat(view: View, seat: int) -> list[Any]:
    """The seat's grid as 16 cells: a face-up value, -1 face down, 0 the hole (as the
    greedy rule reads a grid: only face-up values count)."""
    return [
        -1 if cell == "?" else 0 if cell is None else cell
        for row in view["grids"][seat]
        for cell in row
    ]


def side_words(direction: str) -> Text:
    """Where a card is pushed in from, as a sentence's part."""
    if direction == "left":
        # TRANSLATORS: where a card is pushed into the grid from ("push it in from the left")
        return _("from the left")
    if direction == "right":
        # TRANSLATORS: where a card is pushed into the grid from
        return _("from the right")
    if direction == "top":
        # TRANSLATORS: where a card is pushed into the grid from
        return _("from the top")
    # TRANSLATORS: where a card is pushed into the grid from
    return _("from the bottom")


class SlideTutorial(Tutorial):
    game = "slide"
    seed = 36
    seats = (LEARNER, "greedy", "greedy")

    def suggest(self, state: State, seat: int) -> Action | None:
        if seat not in state.to_act():
            return None
        view = state.view(seat)
        grid = flat(view, seat)
        if view["phase"] == "reveal":
            down = [i for i, v in enumerate(grid) if v == -1]
            return f"reveal {CELL_NAMES[greedy_reveal(down)]}" if down else None
        if view["phase"] == "take" and view["centre"]:
            hole = CELL_INDEX[view["holes"][seat]]
            value, direction = greedy_take(grid, hole, view["centre"])
            return f"take {value} {direction}"
        return None

    def equivalent(self, view: View, played: Action, suggested: Action) -> bool:
        """A reveal that leaves as many pushes, or a take that leaves the same sum of
        unpaired cards, is as good as the suggestion."""
        a, b = played.split(" "), suggested.split(" ")
        if a[0] != b[0]:
            return False
        if a[0] == "reveal":
            return len(PUSHES[CELL_INDEX[a[1]]]) == len(PUSHES[CELL_INDEX[b[1]]])
        return self._left(view, a) == self._left(view, b)

    @staticmethod
    def _left(view: View, take: list[str]) -> int:
        """The sum of unpaired face-up cards a take (``["take", value, side]``) leaves."""
        seat = view["seat"]
        grid = flat(view, seat)
        push(grid, CELL_INDEX[view["holes"][seat]], take[2], int(take[1]))
        return unpaired_sum(grid)

    def explain(self, view: View, suggest: Action | None, moves: int) -> list[Text]:
        seat = view["seat"]
        if view["phase"] == "over":
            return self._ending(view, seat)
        if suggest is None:
            if view["phase"] == "reveal":
                return [_("The others are choosing their cards to reveal: wait a moment.")]
            return [_("The others take their cards in turn; the last player gets the last one.")]
        if view["phase"] == "reveal":
            return [self._reveal(view, suggest, moves)]
        said = []
        if moves <= 1:
            said.append(
                _(
                    "The draft: in turn, everyone takes one card from the middle. You push it "
                    "into your grid from an edge of the hole's row or column, and the cards "
                    "between slide one step toward the hole."
                )
            )
        said.append(self._take(view, seat, suggest))
        return said

    def _reveal(self, view: View, suggest: Action, moves: int) -> Text:
        cell = suggest.split(" ")[1]
        if moves == 0:
            return _(
                "The reveal: everyone picks one face-down card at once, and the picked cards "
                "go face up to the middle. Reveal {cell}: a hole inside the grid can be "
                "filled from four sides.",
                cell=cell,
            )
        if view["round"] == 16:
            return _(
                "The last round: your last face-down card, {cell}, is the one to reveal.",
                cell=cell,
            )
        return _(
            "Round {round}: reveal another face-down card. {cell} leaves the most ways to "
            "push a card in.",
            round=view["round"],
            cell=cell,
        )

    def _take(self, view: View, seat: int, suggest: Action) -> Text:
        _take_word, value, direction = suggest.split(" ")
        card = int(value)
        grid = flat(view, seat)
        trial = grid.copy()
        push(trial, CELL_INDEX[view["holes"][seat]], direction, card)
        if unpaired_sum(trial) < unpaired_sum(grid) + card:
            return _(
                "Take the {card} and push it in {side}: it lands next to another {card}, "
                "and touching equal cards cancel at the end.",
                card=card,
                side=side_words(direction),
            )
        return _(
            "Take the {card} and push it in {side}: a card that stays counts its value "
            "against you, so a low one costs least.",
            card=card,
            side=side_words(direction),
        )

    def _ending(self, view: View, seat: int) -> list[Text]:
        result = view["result"]
        return [
            _(
                "The end: every card touching a card of the same number is removed, and "
                "the lowest sum of the cards left wins."
            ),
            _(
                "Your cards left add up to {score}: you came {place}.",
                score=result["scores"][seat],
                place=ordinal(result["ranks"][seat]),
            ),
        ]
