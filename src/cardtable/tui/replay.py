"""The replay app: step through a saved record as a spectator.

Each step is the spectator's view (``view(None)``) after that many actions, built by dealing the
record's seed and acting its actions one by one on clones. A finished game's last view shows
every card the game reveals at its end.

Every word reads in the reader's language (``lang``, else the terminal's ``LANG``), as the
play app's do (``tui.widgets``): a record reads in whatever language opens it.
"""

from __future__ import annotations

import os
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import games
from cardtable.core.words import translatable
from cardtable.i18n.languages import from_environment
from cardtable.i18n.reader import reader
from cardtable.tui.boards import seat_word
from cardtable.tui.games import board_for
from cardtable.tui.widgets import Board, speak_bindings

_, _n = translatable("tui")

CSS = """
#main { height: 1fr; }
#board-pane { width: 1fr; }
#side { width: 34; border-left: solid $primary-darken-2; padding: 0 1; }
#step { height: auto; margin-bottom: 1; }
#steps { height: 1fr; border: none; padding: 0; }
"""


def replay_views(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The spectator's view before the first action and after each one."""
    state = games.get(record["game"]).deal(
        record["seed"], record["players"], record.get("options", {})
    )
    views = [state.view(None)]
    for seat, action in record["actions"]:
        state = state.clone()  # each step keeps its own state, so stepping back is free
        state.act(seat, action)
        views.append(state.view(None))
    return views


class ReplayApp(App[None]):
    """Next/previous/first/last through a record."""

    CSS = CSS
    TITLE = "cardtable"
    # Textual's command palette holds only Textual's own commands, in English
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("right,n,space,l", "step(1)", _("Next")),
        Binding("left,b,h", "step(-1)", _("Previous")),
        Binding("home,g", "go(0)", _("First")),
        Binding("end,G", "go(-1)", _("Last")),
        Binding("q", "quit", _("Quit")),
    ]

    def __init__(self, record: dict[str, Any], *, start: int = 0, lang: str | None = None) -> None:
        super().__init__()
        #: the reader's language: ``lang``, else the terminal's (``LANG``)
        self.read = reader(lang or from_environment(os.environ))
        speak_bindings(self, self.read)
        games.replay(record)  # refuses a bad record whole, with its reason
        self.record = record
        self.actions: list[tuple[int, str]] = [(s, a) for s, a in record["actions"]]
        self.views = replay_views(record)
        self.step = start if start >= 0 else len(self.views) + start

    def compose(self) -> ComposeResult:
        read = self.read
        with Horizontal(id="main"):
            with VerticalScroll(id="board-pane"):
                yield Board(board_for(games.get(self.record["game"]), read), id="board")
            with Vertical(id="side"):
                yield Static(id="step")
                yield OptionList(
                    # TRANSLATORS: the replay's first step: the cards as dealt, before any move
                    Option(Text("(" + read(_("the deal")) + ")", "dim"), id="0"),
                    *(
                        Option(f"{n:>3}. {read(seat_word(s))}: {a}", id=str(n))
                        for n, (s, a) in enumerate(self.actions, 1)
                    ),
                    id="steps",
                )
        yield Footer()

    def on_mount(self) -> None:
        game = games.get(self.record["game"]).title
        # the seed is typed back (--seed): as it is, never grouped like an amount
        words = _("replay · {game} · seed {seed}", game=game, seed=str(self.record["seed"]))
        self.title = f"cardtable {self.read(words)}"
        self.query_one("#steps", OptionList).focus()
        self.show_step()

    @property
    def last(self) -> int:
        return len(self.views) - 1

    def show_step(self) -> None:
        read = self.read
        view = self.views[self.step]
        self.query_one("#board", Board).show(view, None)
        text = Text()
        text.append(read(_("Step {step} of {last}", step=self.step, last=self.last)) + "\n", "bold")
        if self.step:
            seat, action = self.actions[self.step - 1]
            text.append(f"{read(seat_word(seat))}: {action}\n")
        else:
            text.append(read(_("the deal")) + "\n")
        if self.step == self.last:
            text.append(
                read(
                    _("end of the game")
                    if "result" in view
                    else _("end of the record (unfinished)")
                ),
                "bold yellow",
            )
        text.append("\n" + read(_("→ next  ← back  Home/End")))
        self.query_one("#step", Static).update(text)
        steps = self.query_one("#steps", OptionList)
        if steps.highlighted != self.step:
            steps.highlighted = self.step

    def action_step(self, delta: int) -> None:
        self.action_go(max(0, min(self.last, self.step + delta)))

    def action_go(self, step: int) -> None:
        self.step = self.last if step < 0 else min(step, self.last)
        self.show_step()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # moving in the list moves through the game too (unless the app is closing)
        if not self.is_running or not self.query("#board"):
            return
        if event.option.id is not None and int(event.option.id) != self.step:
            self.step = int(event.option.id)
            self.show_step()
