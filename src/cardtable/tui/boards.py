"""What every game's terminal board shares: styles, seat labels, click links, plain text.

The boards themselves are pure functions from a view (the dict ``State.view`` returns) to Rich
text, one module per game in ``tui/games/`` (and a generic one for any other game). Nothing
there touches a state: a board can only show what the view holds, so a seat's screen can never
show a card its view hides.

With ``links=True`` the cards carry ``@click`` metadata naming the card (a *card reference*,
the game's own words, e.g. ``cell 0 b3`` or ``hand 34``); the play app hands a click on one to
its game's ``click``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text

from cardtable.core.words import Text as Words
from cardtable.core.words import translatable

_, _n = translatable("tui")

DIM = Style(dim=True)
BOLD = Style(bold=True)
TITLE = Style(bold=True, color="cyan")
TURN = Style(bold=True, color="yellow")
GOOD = Style(bold=True, color="green")
BAD = Style(color="red")
SELECTED = Style(reverse=True, bold=True)
HOLE = Style(bgcolor="grey23")
HIDDEN = Style(color="bright_black")


def seat_word(seat: int) -> Words:
    """A seat as people count it, from 1 as the browser does: ``seat_word(0) == 'seat 1'``.
    Only what a person reads; records and indices stay 0-based."""
    return _("seat {n}", n=seat + 1)


def seat_label(seat: int, names: Sequence[str] | None) -> Words:
    """``'you (seat 1)'`` for the person at the keyboard, ``'seat 2 (greedy)'`` for a bot
    (``seat`` is the 0-based index). In words of the ``tui`` domain (a reader puts them
    into a language); a name is words of its own (``Table.names``: "you", "player") or a
    bot's spec, read as it is."""
    name = names[seat] if names is not None and 0 <= seat < len(names) else ""
    if name == "you":  # alone: no seat talk
        return _("you") if len(names or ()) == 1 else _("you ({seat})", seat=seat_word(seat))
    if not name:
        return seat_word(seat)
    # TRANSLATORS: a seat and who sits there: "seat 2 (greedy)", a bot's name, or "player"
    return _("{seat} ({name})", seat=seat_word(seat), name=name)


def link(style: Style, ref: str, links: bool) -> Style:
    """``style`` with a click on it meaning the card ``ref`` (when ``links``)."""
    return style + Style(meta={"@click": f"app.card({ref!r})"}) if links else style


def plain(renderable: Any, width: int = 100) -> str:
    """The text a renderable shows on a plain terminal ``width`` columns wide (for tests)."""
    if isinstance(renderable, Text):
        return renderable.plain
    console = Console(width=width, record=True, color_system=None, force_terminal=False)
    with console.capture():
        console.print(renderable)
    return console.export_text()


def to_text(renderable: RenderableType, width: int) -> Text:
    """Any Rich renderable (a tree, a table) as styled text ``width`` columns wide, so every
    board is one ``Text`` whatever drew it."""
    console = Console(width=width, file=io.StringIO(), color_system="truecolor")
    out = Text()
    for n, line in enumerate(console.render_lines(renderable, pad=False)):
        if n:
            out.append("\n")
        for segment in line:
            if not segment.control:
                out.append(segment.text, segment.style)
    out.rstrip()
    return out
