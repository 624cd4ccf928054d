"""The Game's tutorial: the four piles, the backwards trick of exactly ten, the minimum of
two cards (one once the draw pile is empty), and what may be said (the pile signals).

The learner plays with the ``team`` bot as partner. The suggestion: the play with the
smallest jump (a backwards trick before anything), and ending the turn once the minimum is
played when the next card would jump far.
"""

from __future__ import annotations

from cardtable.core.protocol import Action, State, View
from cardtable.core.tutorial import LEARNER, Tutorial
from cardtable.core.words import Text, translatable
from cardtable.games.the_game import PILE_WORDS

_, _n = translatable("the-game")

#: a jump the suggestion makes beyond its minimum only if it is this small
SMALL_JUMP = 2
#: the jump of a backwards trick (less than any forward jump)
TRICK = -10


def jump(pile: str, card: int, top: int) -> int:
    """How many numbers a play skips on ``pile`` (``TRICK`` for exactly ten back)."""
    gap = card - top if pile.startswith("up") else top - card
    return TRICK if gap == -10 else gap


class TheGameTutorial(Tutorial):
    game = "the-game"
    seed = 1
    seats = (LEARNER, "team")

    def suggest(self, state: State, seat: int) -> Action | None:
        if seat not in state.to_act():
            return None
        view = state.view(seat)
        legal = state.legal(seat)
        plays = []
        for action in legal:
            words = action.split(" ")
            if words[0] == "play":
                plays.append((jump(words[2], int(words[1]), view["piles"][words[2]]), action))
        best = min(plays, default=None)
        done = view["played_this_turn"] >= view["minimum"]
        if "end" in legal and done and (best is None or best[0] > SMALL_JUMP):
            return "end"
        return best[1] if best else None

    def equivalent(self, view: View, played: Action, suggested: Action) -> bool:
        """The same card with the same jump (on the twin pile) is as good."""
        a, b = played.split(" "), suggested.split(" ")
        if len(a) != 3 or len(b) != 3 or a[0] != "play" or b[0] != "play" or a[1] != b[1]:
            return played == suggested
        card = int(a[1])
        return jump(a[2], card, view["piles"][a[2]]) == jump(b[2], card, view["piles"][b[2]])

    def explain(self, view: View, suggest: Action | None, moves: int) -> list[Text]:
        if view["over"]:
            return [self._ending(view)]
        if suggest is None:
            return [
                _(
                    "Your partner is playing. Numbers may not be said, but you may signal a "
                    "pile: please avoid it, only a small jump, or I have something good."
                )
            ]
        said = []
        if moves == 0:
            said.append(
                _(
                    "Two piles go up from 1 and two go down from 100. Play at least two "
                    "cards a turn, then draw back up to your hand."
                )
            )
        if view["draw_pile"] == 0 and view["played_this_turn"] == 0:
            said.append(_("The draw pile is empty: from now on one card a turn is enough."))
        said.append(self._step(view, suggest))
        return said

    def _step(self, view: View, suggest: Action) -> Text:
        if suggest == "end":
            return _n(
                "You have played your {n} card: end the turn, since the next one would "
                "jump far and waste numbers.",
                "You have played your {n} cards: end the turn, since the next one would "
                "jump far and waste numbers.",
                view["minimum"],
            )
        _play, card, pile = suggest.split(" ")
        if jump(pile, int(card), view["piles"][pile]) == TRICK:
            return _(
                "Play {card} on {pile}: exactly ten back is allowed (the backwards trick), "
                "and it gives the pile room again.",
                card=card,
                pile=PILE_WORDS[pile],
            )
        return _(
            "Play {card} on {pile}: it is your smallest jump, and every number skipped is "
            "lost for good.",
            card=card,
            pile=PILE_WORDS[pile],
        )

    def _ending(self, view: View) -> Text:
        left = view["result"]["cards_left"]
        if left == 0:
            return _("You won together: all 98 cards are played.")
        return _n(
            "The game is over with {n} card left; 10 or fewer is a good result.",
            "The game is over with {n} cards left; 10 or fewer is a good result.",
            left,
        )
