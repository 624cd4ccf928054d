"""The replay app: step through a saved record as a spectator.

Each step is the spectator's view (``view(None)``) after that many actions, built by dealing the
record's seed and acting its actions one by one on clones. A finished game's last view shows
every card the game reveals at its end.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import games
from cardtable.tui.boards import seat_word
from cardtable.tui.games import board_for
from cardtable.tui.widgets import Board

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
    TITLE = "cardtable replay"
    BINDINGS = [
        Binding("right,n,space,l", "step(1)", "Next"),
        Binding("left,b,h", "step(-1)", "Previous"),
        Binding("home,g", "go(0)", "First"),
        Binding("end,G", "go(-1)", "Last"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, record: dict[str, Any], *, start: int = 0) -> None:
        super().__init__()
        games.replay(record)  # refuses a bad record whole, with its reason
        self.record = record
        self.actions: list[tuple[int, str]] = [(s, a) for s, a in record["actions"]]
        self.views = replay_views(record)
        self.step = start if start >= 0 else len(self.views) + start

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with VerticalScroll(id="board-pane"):
                yield Board(board_for(games.get(self.record["game"])), id="board")
            with Vertical(id="side"):
                yield Static(id="step")
                yield OptionList(
                    Option(Text("(the deal)", "dim"), id="0"),
                    *(
                        Option(f"{n:>3}. {seat_word(s)}: {a}", id=str(n))
                        for n, (s, a) in enumerate(self.actions, 1)
                    ),
                    id="steps",
                )
        yield Footer()

    def on_mount(self) -> None:
        game = games.get(self.record["game"]).title
        self.title = f"cardtable replay · {game} · seed {self.record['seed']}"
        self.query_one("#steps", OptionList).focus()
        self.show_step()

    @property
    def last(self) -> int:
        return len(self.views) - 1

    def show_step(self) -> None:
        view = self.views[self.step]
        self.query_one("#board", Board).show(view, None)
        text = Text()
        text.append(f"Step {self.step} of {self.last}\n", "bold")
        if self.step:
            seat, action = self.actions[self.step - 1]
            text.append(f"{seat_word(seat)}: {action}\n")
        else:
            text.append("the deal\n")
        if self.step == self.last:
            text.append(
                "end of the game" if "result" in view else "end of the record (unfinished)",
                "bold yellow",
            )
        text.append("\n→ next  ← back  Home/End")
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
