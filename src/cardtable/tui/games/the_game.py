"""The Game in the terminal: the four piles with the signals on them, the hand, the turn.

Card references (the argument of a click): ``hand CARD`` and ``pile NAME``; a play is two
clicks, a card then a pile. Key: e ends the turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text

from cardtable.core.protocol import View
from cardtable.core.words import Text as Words
from cardtable.core.words import translatable
from cardtable.tui.boards import (
    BAD,
    BOLD,
    DIM,
    GOOD,
    SELECTED,
    TITLE,
    TURN,
    link,
    seat_label,
    seat_word,
)
from cardtable.tui.games.base import LIST_KEYS, GameBoard, GameKey, Play

_, _n = translatable("tui")

PILES = ("up1", "up2", "down1", "down2")  # the piles in notation order


def _short(seat: int, names: Sequence[str] | None) -> Words:
    if names is not None and 0 <= seat < len(names) and names[seat] == "you":
        return _("you")
    # a seat counted from 1, as seat_word
    # TRANSLATORS: a seat in a few letters, beside a pile's signals ("s2 very close")
    return _("s{n}", n=seat + 1)


class TheGameBoard(GameBoard):
    example = "play 34 up1"
    keys = (GameKey("e", _("End turn"), lambda play: play.try_act("end")),)
    talk_heading = _("signals (talk, any time):")

    def render(
        self,
        view: View,
        names: Sequence[str] | None = None,
        *,
        width: int = 80,
        links: bool = False,
        selected: str | None = None,
        show_result: bool = True,
    ) -> Text:
        """Piles and tops, signals, my hand, the others' hand sizes, draw pile, turn and
        minimum."""
        read = self.read
        me = view.get("seat")
        over = "result" in view
        out = Text()
        out.append(read(self.rules.title), TITLE)
        piles = _(
            "draw pile {draw} · cards left {left}", draw=view["draw_pile"], left=view["cards_left"]
        )
        out.append(f" · {read(piles)}\n")
        if not over and view["turn"] is not None:
            out.append(read(_("Turn:")) + " ", TURN)
            turn = _(
                "{who} · played {played}, min {minimum}",
                who=seat_label(view["turn"], names),
                played=view["played_this_turn"],
                minimum=view["minimum"],
            )
            out.append(read(turn) + "\n")
        out.append("\n")
        signals = view["signals"]
        for pile in PILES:
            up = pile.startswith("up")
            ref = f"pile {pile}"
            label = Text(f" {'▲' if up else '▼'} {pile:<6}", link(Style(), ref, links))
            out.append_text(label)
            top = Text(f"[{view['piles'][pile]:>3}]", link(BOLD, ref, links))
            if selected == ref:
                top.stylize(SELECTED)
            out.append_text(top)
            said = [
                (s, seat_signals[pile])
                for s, seat_signals in enumerate(signals)
                if pile in seat_signals
            ]
            if said:
                out.append("  ")
                out.append(
                    "; ".join(f"{read(_short(s, names))} {read(word)}" for s, word in said),
                    Style(color="magenta", bold=True),
                )
            out.append("\n")
        out.append(" " + read(_("▲ higher or -10 · ▼ lower or +10 (10 back)")) + "\n", DIM)
        out.append("\n")
        hand = view.get("hand")
        if me is not None and hand is not None:
            out.append(read(_("Your hand ({seat}):", seat=seat_word(me))) + " ", BOLD)
            if hand:
                for card in hand:
                    ref = f"hand {card}"
                    out.append(
                        f"{card:>2}", link(SELECTED if selected == ref else BOLD, ref, links)
                    )
                    out.append(" ")
            else:
                out.append(read(_("empty")), DIM)
            out.append("\n")
        for s, size in enumerate(view["hand_sizes"]):
            if s == me:
                continue
            marker = "▶ " if s == view.get("turn") and not over else "  "
            cards = _n("{who}: {n} card", "{who}: {n} cards", size, who=seat_label(s, names))
            out.append(f"{marker}{read(cards)}\n")
        if over and show_result:
            out.append("\n")
            out.append_text(self.result_text(view, names))
        out.rstrip()
        return out

    def status(
        self, view: View, viewer: int | None, acting: tuple[int, ...], names: Sequence[str]
    ) -> Text:
        text = Text()
        if viewer is None:
            return text
        if viewer in acting:
            said = _(
                "Played {played}, at least {minimum}. Play a card on a pile: {keys}; "
                "e ends the turn.",
                played=view["played_this_turn"],
                minimum=view["minimum"],
                keys=LIST_KEYS,
            )
        else:  # signals are legal out of turn: not just waiting
            said = _("{who} is playing. You may signal.", who=seat_label(view["turn"], names))
        text.append(self.read(said) + " ")
        return text

    def click(self, play: Play, ref: str) -> None:
        words = ref.split(" ")
        if words[0] == "hand":
            play.select(
                ref, _("The {card}: now select a pile, or {keys}.", card=words[1], keys=LIST_KEYS)
            )
        elif words[0] == "pile":
            if not play.selected:
                play.say(_("Select a card of your hand first, then the pile."))
                return
            play.try_act(f"play {play.selected.split(' ')[1]} {words[1]}")

    def matches_selection(self, selected: str, action: str) -> bool:
        ref, words = selected.split(" "), action.split(" ")
        if ref[0] == "hand":  # play CARD PILE
            return words[0] == "play" and words[1] == ref[1]
        return True

    def changes(self, before: View, after: View, names: Sequence[str]) -> list[Words]:
        lines = []
        hand_before, hand_after = before.get("hand"), after.get("hand")
        if hand_before is not None and hand_after is not None:
            # how many, not which: the log stays when people sharing the keyboard change
            drawn = len(set(hand_after) - set(hand_before))
            if drawn:
                lines.append(_n("You drew {n} card.", "You drew {n} cards.", drawn))
        if after["turn"] != before["turn"] and after["turn"] is not None:
            lines.append(_("Turn: {who}", who=seat_label(after["turn"], names)))
        return lines

    def result_style(self, n: int, line: str, result: Mapping[str, Any]) -> Style:
        if n == 0:
            return GOOD if result["won"] else BAD
        return GOOD  # the one other line: a good result


ADAPTER = TheGameBoard
