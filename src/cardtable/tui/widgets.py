"""Widgets shared by the play and replay apps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from cardtable.tui.boards import seat_word
from cardtable.tui.games.base import GameBoard


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
        Binding("y", "answer(True)", "Leave"),
        Binding("n,escape", "answer(False)", "Stay"),
    ]

    def __init__(
        self, question: str = "Leave the game before its end?", yes: str = "Leave"
    ) -> None:
        super().__init__()
        self.question, self.yes = question, yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.question}\nThe game so far is saved, so you can replay it.")
            with Grid():
                yield Button(f"{self.yes} (y)", variant="warning", id="leave")
                yield Button("Stay (n)", variant="primary", id="stay")

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
    BINDINGS = [Binding("enter,space", "go", "I am ready")]

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        yield Static(
            f"{seat_word(self.seat).capitalize()}, it is your move.\n\n"
            "Everyone else, please look away.\n\nPress Enter when ready."
        )

    def action_go(self) -> None:
        self.dismiss(None)
