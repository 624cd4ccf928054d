"""Slide in the terminal: every grid as 4x4, the centre, clicks to reveal and to take.

Card references (the argument of a click): ``cell SEAT NAME`` (a grid cell, e.g. ``cell 0
b3``; only the person's own grid is clickable) and ``centre VALUE``. A take is two clicks: a
centre card, then a cell of the hole's row or column, the side the card enters from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text

from cardtable.core.protocol import View
from cardtable.core.words import Text as Words
from cardtable.core.words import translatable
from cardtable.i18n.reader import Reader
from cardtable.tui.boards import (
    BOLD,
    DIM,
    GOOD,
    HIDDEN,
    HOLE,
    SELECTED,
    TITLE,
    TURN,
    link,
    seat_label,
)
from cardtable.tui.games.base import LIST_KEYS, GameBoard, Play

_, _n = translatable("tui")

COLUMNS = "abcd"  # the cell notation: column letter, row number (RULES.md)
BLOCK = 21  # columns a grid block takes, gap included


def slide_direction(hole: str, cell: str) -> str | None:
    """The push that a click on ``cell`` means, with the hole at ``hole`` (both like ``b3``).

    A cell left of the hole in its row means "push in from the left", and so on: the card
    enters at that end and the cells between slide toward the hole.
    """
    hc, hr = COLUMNS.index(hole[0]), int(hole[1])
    cc, cr = COLUMNS.index(cell[0]), int(cell[1])
    if cr == hr and cc != hc:
        return "left" if cc < hc else "right"
    if cc == hc and cr != hr:
        return "top" if cr < hr else "bottom"
    return None


class SlideBoard(GameBoard):
    example = "take 7 left"

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
        """Every grid as 4x4 (face-down ``?``, the hole empty), the centre, who chose, whose
        turn."""
        read = self.read
        me = view.get("seat")
        players = view["players"]
        phase = view["phase"]
        over = "result" in view
        out = Text()
        target = view.get("target")
        out.append(read(self.rules.title), TITLE)
        out.append(f" · {read(self._stage(view))}\n")
        if not over:
            if phase == "reveal":
                waiting = self.listed([seat_label(s, names) for s in view["to_act"]])
                out.append(read(_("Reveal:")) + " ", TURN)
                out.append(
                    read(
                        _(
                            "each seat secretly picks a face-down card; waiting for {who}",
                            who=waiting or _("nobody"),
                        )
                    )
                )
                out.append("\n")
            else:
                out.append(read(_("Take:")) + " ", TURN)
                who = seat_label(view["turn"], names)
                out.append(read(_("{who} takes a centre card and slides it in", who=who)))
                out.append("\n")
        out.append(read(_("Centre:")) + " ")
        if view["centre"]:
            for value in view["centre"]:
                ref = f"centre {value}"
                style = SELECTED if selected == ref else BOLD
                out.append(f"[{value:>2}]", link(style, ref, links))
                out.append(" ")
        else:
            out.append(read(_("empty")) if phase == "reveal" else "-", DIM)
        out.append("\n")
        if target and any(view.get("totals", [])):
            totals = ", ".join(
                f"{read(seat_label(s, names))} {read(t)}" for s, t in enumerate(view["totals"])
            )
            out.append(read(_("Totals: {totals}", totals=totals)) + "\n")
        removed = _removed(view)
        blocks = [
            _block(view, s, names, me, links, selected, removed.get(s, set()), read)
            for s in range(players)
        ]
        # the person's own grid first, then the others in seat order
        if me is not None and 0 <= me < players:
            blocks.insert(0, blocks.pop(me))
        per_row = max(1, min(players, width // BLOCK))
        for start in range(0, len(blocks), per_row):
            row = blocks[start : start + per_row]
            out.append("\n")
            for line in range(len(row[0])):
                joined = Text()
                for block in row:
                    piece = block[line]
                    joined.append_text(piece)
                    joined.append(" " * max(1, BLOCK - piece.cell_len))
                joined.rstrip()
                out.append_text(joined)
                out.append("\n")
        if over and show_result:
            out.append("\n")
            out.append_text(self.result_text(view, names))
        out.rstrip()
        return out

    def _stage(self, view: View) -> Words:
        """Where the game is: the round (and the deal, when played to a target), or over."""
        target = view.get("target")
        if "result" in view:
            if not target:
                return _("game over")
            return _n(
                "game over after {n} deal, target {target}",
                "game over after {n} deals, target {target}",
                view["deal"],
                target=target,
            )
        if not target:
            return _("round {round} of {rounds}", round=view["round"], rounds=16)
        return _(
            "round {round} of {rounds} · deal {deal}, target {target}",
            round=view["round"],
            rounds=16,
            deal=view["deal"],
            target=target,
        )

    def status(
        self, view: View, viewer: int | None, acting: tuple[int, ...], names: Sequence[str]
    ) -> Text:
        text = Text()
        said: Words | None = None
        if view["phase"] == "reveal":
            if viewer is not None and view["chosen"][viewer]:
                said = _(
                    "You reveal {cell}; pick another to change your mind.", cell=view["choice"]
                )
            elif viewer is not None:
                said = _("Choose one of your ? cards to reveal: {keys}.", keys=LIST_KEYS)
        elif viewer in acting:
            said = _("Take a centre card and the side it enters from: {keys}.", keys=LIST_KEYS)
        if said is not None:
            text.append(self.read(said) + " ")
        text.append_text(super().status(view, viewer, acting, names))
        return text

    def click(self, play: Play, ref: str) -> None:
        words = ref.split(" ")
        view = play.current_view()
        if words[0] == "cell":
            cell = words[2]
            if view["phase"] == "reveal":
                play.try_act(f"reveal {cell}")
                return
            if view["turn"] != play.viewer:
                play.say(_("Wait for your turn to take a card."))
                return
            if not play.selected:
                play.say(_("First select a centre card, then the side it enters from."))
                return
            hole = view["holes"][play.viewer]
            direction = slide_direction(hole, cell)
            if direction is None:
                play.say(
                    _(
                        "Select a cell in the row or column of your hole ({hole}): "
                        "the card enters from that side.",
                        hole=hole,
                    ),
                    error=True,
                )
                return
            play.try_act(f"take {play.selected.split(' ')[1]} {direction}")
        elif words[0] == "centre":
            if view["phase"] != "take" or view["turn"] != play.viewer:
                play.say(_("Wait for your turn to take a card."))
                return
            play.select(
                ref,
                _(
                    "Take {card}: select a cell of your hole's row or column "
                    "to push from that side, or {keys}.",
                    card=words[1],
                    keys=LIST_KEYS,
                ),
            )

    def matches_selection(self, selected: str, action: str) -> bool:
        ref, words = selected.split(" "), action.split(" ")
        if ref[0] == "centre":  # take VALUE DIRECTION
            return words[0] == "take" and words[1] == ref[1]
        return True


def _removed(view: dict[str, Any]) -> dict[int, set[str]]:
    """The cells each seat lost to pairs in the last deal (known only at the end)."""
    result = view.get("result")
    if not result or not result.get("deals"):
        return {}
    last = result["deals"][-1]
    return {s: set(info["removed"]) for s, info in enumerate(last["seats"])}


def _block(
    view: dict[str, Any],
    seat: int,
    names: Sequence[str] | None,
    me: int | None,
    links: bool,
    selected: str | None,
    removed: set[str],
    read: Reader,
) -> list[Text]:
    phase = view["phase"]
    over = "result" in view
    title = Text(read(seat_label(seat, names)), BOLD if seat == me else Style())
    status = Text()
    if over:
        info = view["result"]
        won = GOOD if seat in info["winners"] else Style()
        standing = _(
            "#{rank} · {score} pts, {left} left",
            rank=info["ranks"][seat],
            score=info["scores"][seat],
            left=info["remaining"][seat],
        )
        status.append(read(standing), won)
    elif phase == "reveal":
        if view["chosen"][seat]:
            status.append("✓ " + read(_("chosen")), GOOD)
            if seat == me and view.get("choice"):
                status.append(f" {view['choice']}")
        else:
            status.append("… " + read(_("choosing")), DIM)
    elif view["turn"] == seat:
        status.append("▶ " + read(_("to take")), TURN)
    if not over and view.get("first") == seat:
        status.append(" ★" if status.plain else "★", TURN)  # the first-player token
    lines = [title, status, Text("    a  b  c  d", DIM)]
    hole = view["holes"][seat]
    for r, row in enumerate(view["grids"][seat]):
        line = Text(f"{r + 1} ", DIM)
        for c, cell in enumerate(row):
            name = f"{COLUMNS[c]}{r + 1}"
            ref = f"cell {seat} {name}"
            if cell is None:  # the hole
                style = HOLE
                shown = "   "
            elif cell == "?":
                chosen = seat == me and view.get("choice") == name
                style = SELECTED if chosen else HIDDEN
                shown = "  ?"
            else:
                style = BOLD
                shown = f"{cell:>3}"
                if name in removed:
                    style = Style(strike=True, dim=True)
            if selected == ref:
                style = style + SELECTED
            line.append(shown, link(style, ref, links and seat == me))
        if hole and hole[1] == str(r + 1):
            line.append(" ←", DIM)  # points at the hole's row
        lines.append(line)
    return lines


ADAPTER = SlideBoard
