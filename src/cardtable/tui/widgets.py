"""Widgets shared by the play and replay apps, and how their words reach the reader's language.

An app holds its reader (``read``: a ``cardtable.i18n.reader.Reader``); every word on the
screen is put through it, the terminal's own (the ``tui`` domain) and the games' alike. Key
bindings are declared in English words of the ``tui`` domain (``BINDINGS``, class-level) and
``speak_bindings`` puts a node's into its reader's language once it is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from cardtable.core.words import Text as Words
from cardtable.core.words import translatable
from cardtable.i18n.languages import DEFAULT
from cardtable.i18n.reader import Reader, reader
from cardtable.tui.boards import seat_word
from cardtable.tui.games.base import GameBoard

_, _n = translatable("tui")


def reader_of(app: App[Any]) -> Reader:
    """The reader of an app (``PlayApp.read``, ``ReplayApp.read``); English for another."""
    read = getattr(app, "read", None)
    return read if isinstance(read, Reader) else reader(DEFAULT)


def speak_bindings(node: DOMNode, read: Reader) -> None:
    """``node``'s key bindings with their descriptions (the footer's words) in ``read``'s
    language. Textual keeps a node's bindings in ``_bindings``, copied from its class's:
    new lists replace the old, so the class's own stay English for another language."""
    bindings = node._bindings
    bindings.key_to_bindings = {
        key: [
            dataclasses.replace(b, description=read(b.description)) if b.description else b
            for b in found
        ]
        for key, found in bindings.key_to_bindings.items()
    }


class Board(Widget):
    """Draws a view with its game's board (``tui.games``), re-laid out to the width it gets."""

    DEFAULT_CSS = """
    Board { height: auto; width: 1fr; padding: 0 1; }
    """

    def __init__(
        self, adapter: GameBoard, *, links: bool = False, show_result: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.adapter = adapter
        self.links = links
        self.show_result = show_result
        self.board_view: dict[str, Any] | None = None
        self.names: Sequence[str] | None = None
        self.selected: str | None = None
        self._cache: tuple[int, Text] | None = None  # (width, text) of the current view

    def show(
        self,
        view: dict[str, Any],
        names: Sequence[str] | None,
        selected: str | None = None,
    ) -> None:
        lines = self._cache[1].plain.count("\n") if self._cache else -1
        self.board_view = view
        self.names = names
        self.selected = selected
        self._cache = None
        # a new layout (costly) only when the board's height may have changed
        self.refresh(layout=self.render().plain.count("\n") != lines)

    def render(self) -> Text:
        if self.board_view is None:
            return Text("")
        width = self.content_size.width or 80
        if self._cache is None or self._cache[0] != width:
            text = self.adapter.render(
                self.board_view,
                self.names,
                width=width,
                links=self.links,
                selected=self.selected,
                show_result=self.show_result,
            )
            self._cache = (width, text)
        return self._cache[1]


class ConfirmQuit(ModalScreen[bool]):
    """Leave a game before its end (or ``question``: deal again)? The game so far is saved
    either way."""

    DEFAULT_CSS = """
    ConfirmQuit { align: center middle; }
    ConfirmQuit > Vertical {
        width: 54; height: auto; padding: 1 2; border: thick $warning; background: $surface;
    }
    ConfirmQuit Grid { grid-size: 2; grid-gutter: 1 2; height: auto; margin-top: 1; }
    ConfirmQuit Button { width: 100%; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", _("Leave")),
        Binding("n,escape", "answer(False)", _("Stay")),
    ]

    def __init__(self, question: Words | None = None, yes: Words | None = None) -> None:
        super().__init__()
        self.question = question or _("Leave the game before its end?")
        self.yes = yes or _("Leave")

    def compose(self) -> ComposeResult:
        read = reader_of(self.app)
        speak_bindings(self, read)
        saved = read(_("The game so far is saved, so you can replay it."))
        with Vertical():
            yield Label(f"{read(self.question)}\n{saved}")
            with Grid():
                yield Button(
                    read(_("{answer} (y)", answer=self.yes)), variant="warning", id="leave"
                )
                yield Button(read(_("Stay (n)")), variant="primary", id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class HandOver(Screen[None]):
    """Hides the board between two people who share the keyboard (an opaque screen)."""

    DEFAULT_CSS = """
    HandOver { align: center middle; }
    HandOver > Static { width: 50; height: auto; padding: 1 2; border: thick $primary; }
    """
    BINDINGS = [Binding("enter,space", "go", _("I am ready"))]

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        read = reader_of(self.app)
        speak_bindings(self, read)
        yield Static(
            read(
                _(
                    "{seat}, it is your move.\n\nEveryone else, please look away.\n\n"
                    "Press Enter when ready.",
                    seat=capitalized(read(seat_word(self.seat))),
                )
            )
        )

    def action_go(self) -> None:
        self.dismiss(None)


def capitalized(words: str) -> str:
    """``words`` with a capital first letter (``str.capitalize`` would lower the rest)."""
    return words[:1].upper() + words[1:]
