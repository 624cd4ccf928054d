"""The board of any game without one of its own: the view as a readable tree.

The play app around it does the rest for every game: the legal actions as a selectable list
(labelled by ``Game.move_label``), the typed-action input, the log (``Game.describe_action``)
and the end (``Game.result_lines``). A new game is therefore playable in the terminal as soon
as it is registered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from rich.tree import Tree

from cardtable.core.protocol import View
from cardtable.core.words import translatable
from cardtable.i18n.reader import Reader
from cardtable.tui.boards import BOLD, DIM, TITLE, TURN, seat_label, seat_word, to_text
from cardtable.tui.games.base import GameBoard

_, _n = translatable("tui")

#: view fields the screen shows elsewhere (the title; the result under the moves), or in
#: the line of seats every view has (``ViewBase``: whose view, how many, whose turn)
SHOWN_ELSEWHERE = ("game", "result", "seat", "players", "to_act")


def words(key: str) -> str:
    return key.replace("_", " ")


def scalar(value: Any, read: Reader) -> Text:
    """A value that needs no branch of its own, in words."""
    if value is None:
        return Text("—", DIM)  # hidden, or nothing
    if isinstance(value, bool):
        return Text(read(_("yes") if value else _("no")))
    if isinstance(value, list | tuple):
        return Text(", ".join(map(read, value))) if value else Text(read(_("none")), DIM)
    return Text(read(value), BOLD)


def flat(value: Any) -> bool:
    """A scalar, or a list of scalars: shown on its key's line."""
    if isinstance(value, list | tuple):
        return all(not isinstance(v, list | tuple | dict) for v in value)
    return not isinstance(value, dict)


def grow(branch: Tree, key: str, value: Any, read: Reader) -> None:
    if flat(value):
        line = Text(f"{words(key)}: ")
        line.append_text(scalar(value, read))
        branch.add(line)
        return
    node = branch.add(Text(words(key), BOLD))
    # a list's items numbered from 1, as the browser's generic board numbers them
    items = value.items() if isinstance(value, dict) else enumerate(value, start=1)
    for k, v in items:
        grow(node, str(k), v, read)


def seats_line(view: View, names: Sequence[str] | None, read: Reader) -> Text:
    """The fields every view has, in words, seats counted from 1: ``You: seat 2 · 3 players ·
    To act: seat 1 (greedy)``."""
    seat = view.get("seat")
    line = Text(read(_("Watching") if seat is None else _("You: {seat}", seat=seat_word(seat))))
    players = _n("{n} player", "{n} players", view.get("players") or 0)
    line.append(f" · {read(players)} · ")
    to_act = view.get("to_act") or []
    if to_act:
        line.append(read(_("To act:")) + " ")
        line.append(", ".join(read(seat_label(s, names)) for s in to_act), TURN)
    else:
        line.append(read(_("Nobody to act")), DIM)
    return line


class GenericBoard(GameBoard):
    """Any game's view, field by field; nested fields (per seat, per pile) as branches."""

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
        tree = Tree(Text(self.read(self.rules.title), TITLE), guide_style="dim")
        tree.add(seats_line(view, names, self.read))
        for key, value in view.items():
            if key not in SHOWN_ELSEWHERE:
                grow(tree, key, value, self.read)
        out = to_text(tree, width)
        result = view.get("result")
        if result and show_result:
            out.append("\n\n")
            out.append_text(self.result_text(view, names))
        return out


ADAPTER = GenericBoard
