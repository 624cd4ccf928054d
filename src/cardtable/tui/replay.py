"""The replay app: step through a saved record as a spectator.

Each step is the spectator's view (``view(None)``) after that many actions, built by dealing the
record's seed and acting its actions one by one on clones. A finished game's last view shows
every card the game reveals at its end.

Every word reads in the reader's language (``lang``, else the terminal's ``LANG``), as the
play app's do (``tui.widgets``): a record reads in whatever language opens it.

A finished game can be reviewed (``r``, or ``cardtable replay --review``): the review
(``cardtable.review``) runs in a thread while the steps stay usable, then each marked move
carries chess's sign beside it (?! an inaccuracy, ? a mistake, ?? a blunder), the side panel
says each seat's accuracy and the peeking verdict, and each step what the review found.
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
from cardtable.review import words as review_words
from cardtable.tui.boards import seat_word
from cardtable.tui.games import board_for
from cardtable.tui.widgets import Board, speak_bindings

_, _n = translatable("tui")

CSS = """
#main { height: 1fr; }
#board-pane { width: 1fr; }
#side { width: 34; border-left: solid $primary-darken-2; padding: 0 1; }
#step { height: auto; margin-bottom: 1; }
#review { height: auto; margin-bottom: 1; }
#steps { height: 1fr; border: none; padding: 0; }
"""


#: chess's signs for the review's marks, beside a marked move in the list of steps
SIGNS = {"inaccuracy": " ?!", "mistake": " ?", "blunder": " ??"}


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
        # TRANSLATORS: a key that asks for the game review (where each move was won or lost)
        Binding("r", "review", _("Review")),
        Binding("q", "quit", _("Quit")),
    ]

    def __init__(
        self,
        record: dict[str, Any],
        *,
        start: int = 0,
        lang: str | None = None,
        review: dict[str, Any] | None = None,
        review_now: bool = False,
        depth: str = "normal",
    ) -> None:
        super().__init__()
        #: the reader's language: ``lang``, else the terminal's (``LANG``)
        self.read = reader(lang or from_environment(os.environ))
        speak_bindings(self, self.read)
        games.replay(record)  # refuses a bad record whole, with its reason
        self.record = record
        self.actions: list[tuple[int, str]] = [(s, a) for s, a in record["actions"]]
        self.views = replay_views(record)
        self.step = start if start >= 0 else len(self.views) + start
        #: the review once made (``review``: one made before, by ``cardtable review --json``)
        self.review = review
        self.depth = depth
        self.reviewing = False
        self.review_now = review_now

    def compose(self) -> ComposeResult:
        read = self.read
        with Horizontal(id="main"):
            with VerticalScroll(id="board-pane"):
                yield Board(board_for(games.get(self.record["game"]), read), id="board")
            with Vertical(id="side"):
                yield Static(id="review")
                yield Static(id="step")
                yield OptionList(*self.step_options(), id="steps")
        yield Footer()

    def step_options(self) -> list[Option]:
        """The list of steps, each marked move with its sign."""
        read = self.read
        signs = {m["step"] + 1: SIGNS[m["mark"]] for m in self.marked()}
        return [
            # TRANSLATORS: the replay's first step: the cards as dealt, before any move
            Option(Text("(" + read(_("the deal")) + ")", "dim"), id="0"),
            *(
                Option(f"{n:>3}. {read(seat_word(s))}: {a}{signs.get(n, '')}", id=str(n))
                for n, (s, a) in enumerate(self.actions, 1)
            ),
        ]

    def marked(self) -> list[dict[str, Any]]:
        return [m for m in (self.review or {}).get("moves", []) if m["mark"]]

    def on_mount(self) -> None:
        game = games.get(self.record["game"]).title
        # the seed is typed back (--seed): as it is, never grouped like an amount
        words = _("replay · {game} · seed {seed}", game=game, seed=str(self.record["seed"]))
        self.title = f"cardtable {self.read(words)}"
        self.query_one("#steps", OptionList).focus()
        self.show_review()
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
        move = self.reviewed_move(self.step)
        if move is not None:
            style = "bold red" if move["mark"] else ""
            text.append(read(review_words.move_line(move, seat_word(move["seat"]))) + "\n", style)
        text.append("\n" + read(_("→ next  ← back  Home/End")))
        self.query_one("#step", Static).update(text)
        steps = self.query_one("#steps", OptionList)
        if steps.highlighted != self.step:
            steps.highlighted = self.step

    def reviewed_move(self, step: int) -> dict[str, Any] | None:
        """What the review says of the action that led to ``step`` (None: nothing)."""
        moves = (self.review or {}).get("moves", [])
        return next((m for m in moves if m["step"] == step - 1), None)

    def show_review(self, progress: str = "") -> None:
        read = self.read
        text = Text()
        if self.review is not None:
            for entry in self.review["summary"]:
                text.append(read(review_words.summary_line(entry, seat_word(entry["seat"]))) + "\n")
            if self.review.get("verdict"):
                names = [seat_word(s) for s in range(self.review["players"])]
                text.append(
                    read(review_words.verdict_line(self.review["verdict"], names)), "italic"
                )
        elif progress:
            text.append(progress, "yellow")
        self.query_one("#review", Static).update(text)

    def action_review(self) -> None:
        """Review the game in a thread, the steps usable meanwhile."""
        if self.review is not None or self.reviewing:
            return
        if "result" not in self.views[-1]:
            self.notify(self.read(_("Only a finished game can be reviewed.")), severity="warning")
            return
        self.reviewing = True
        self.show_review(self.read(_("Reviewing the game…")))
        self.run_worker(self._review, thread=True, exclusive=True)

    def _review(self) -> None:
        from cardtable.review import review_record

        def progress(done: int, total: int) -> None:
            said = self.read(
                _("Reviewing the game: move {done} of {total}", done=done, total=total)
            )
            self.call_from_thread(self.show_review, said)

        found = review_record(self.record, depth=self.depth, progress=progress)
        self.call_from_thread(self._reviewed, found)

    def _reviewed(self, found: dict[str, Any]) -> None:
        self.review, self.reviewing = found, False
        steps = self.query_one("#steps", OptionList)
        steps.clear_options()
        steps.add_options(self.step_options())
        steps.highlighted = self.step
        self.show_review()
        self.show_step()

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
