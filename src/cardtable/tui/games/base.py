"""What every game's terminal board shares: the ``GameBoard`` a game's module subclasses (its
``ADAPTER``), its keys (``GameKey``), what a board may ask of the play app (``Play``), and the
end's figures as lines (``figure_lines``). ``board_for`` (the package) finds a game's board.

A board speaks its reader's language: it holds the play app's ``Reader`` (``read``) and puts
every word it draws through it, its own (the ``tui`` domain) and the game's alike."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rich.style import Style
from rich.text import Text

from cardtable.core.protocol import Breakdown, Game, View
from cardtable.core.words import Text as Words
from cardtable.core.words import translatable
from cardtable.i18n.reader import Reader, reader
from cardtable.tui.boards import GOOD, TITLE, seat_label
from cardtable.tui.table import Table

_, _n = translatable("tui")

#: how a person plays from the move list, in the prompts (the terminal's keys, never a click)
LIST_KEYS = _("↑↓ and Enter in the move list, or / to type")


class Play(Protocol):
    """What a game's clicks and keys may do on the play screen."""

    table: Table
    #: the seat at the keyboard (None: watching)
    viewer: int | None
    #: a clicked card waiting for its second click (a card reference)
    selected: str | None

    def try_act(self, action: str) -> bool:
        """Act for the seat at the keyboard; a refusal is explained on the screen."""
        ...

    def say(self, message: str, error: bool = False) -> None:
        """A line under the board (words put into the reader's language there)."""
        ...

    def select(self, ref: str, hint: str) -> None:
        """Select the card ``ref`` (or unselect it, clicked again), saying ``hint``."""
        ...

    def current_view(self) -> View:
        """The view of the seat at the keyboard, as shown."""
        ...

    def legal(self) -> list[str]:
        """The legal actions of the seat at the keyboard (none when watching)."""
        ...


@dataclass(frozen=True)
class GameKey:
    """A game's shortcut key: ``key`` (Textual's name for it) runs ``run`` on the screen."""

    key: str
    #: words of the footer (put into the reader's language there)
    description: Words
    run: Callable[[Play], object]
    show: bool = True


class GameBoard(ABC):
    """A game's terminal adapter. Subclasses draw the board; the rest has a default."""

    #: a typed move for the input's placeholder (None: the first legal action)
    example: str | None = None
    #: the game's shortcut keys, added to the screen's footer
    keys: tuple[GameKey, ...] = ()
    #: the heading above talk in the move list (``Game.is_talk``)
    talk_heading: Words = _("talk (any time):")
    #: how the answer of the peek key (``Game.solver``) begins
    peek_words: Words = _("Peeking at the hidden cards")

    def __init__(self, rules: Game, read: Reader | None = None) -> None:
        self.rules = rules
        #: the reader's language: every word drawn goes through it
        self.read = read or reader("en")

    @abstractmethod
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
        """The board of ``view``. ``selected`` is a card reference to highlight;
        ``show_result=False`` leaves out the result of a finished game (shown elsewhere)."""

    def status(
        self, view: View, viewer: int | None, acting: tuple[int, ...], names: Sequence[str]
    ) -> Text:
        """What the seat at the keyboard is waiting for or may do now (the game's part of
        the status line)."""
        text = Text()
        if viewer is not None and viewer not in acting:
            who = self.listed([seat_label(s, names) for s in acting])
            text.append(self.read(_("Waiting for {who}.", who=who)))
        return text

    def listed(self, items: Sequence[object]) -> str:
        """Words put into the reader's language, one after the other, comma-separated."""
        return ", ".join(self.read(item) for item in items)

    def click(self, play: Play, ref: str) -> None:
        """A click on the card ``ref`` of the board (only boards with links have any)."""
        play.say(_("Pick a move: {keys}.", keys=LIST_KEYS))

    def matches_selection(self, selected: str, action: str) -> bool:
        """Whether ``action`` is one of those the selected card leads to (the move list
        shows only those)."""
        return True

    def changes(self, before: View, after: View, names: Sequence[str]) -> list[Words]:
        """Log lines for what the seat can see happen between two of its views."""
        return []

    def result_text(self, view: View, names: Sequence[str] | None) -> Text:
        """The end of a game, as the browser's results panel shows it: the first of the
        game's ``result_lines`` (the winners, or the team's outcome), highlighted; its
        figures (``Game.breakdown``) in one table; its ``result_notes``."""
        out = Text()
        result = view.get("result")
        if not result or not result.get("over"):
            return out
        read = self.read
        labels: list[str] = [seat_label(s, names) for s in range(len(result["scores"]))]
        headline = self.rules.result_lines(result, labels)[:1]
        out.append(read(_("Game over.")) + " ", TITLE)
        for line in headline:
            out.append(read(line), self.result_style(0, line, result))
        breakdown = self.rules.breakdown(view)
        lines = (
            figure_lines(breakdown, result, labels, self.rules.cooperative, read)
            if breakdown
            else []
        )
        notes = [read(note) for note in self.rules.result_notes(result, labels)]
        for line in [*lines, *notes]:
            out.append("\n" + line)
        return out

    def result_style(self, n: int, line: str, result: Mapping[str, Any]) -> Style:
        """The style of the ``n``-th result line (the first: the headline)."""
        return GOOD if n == 0 and result["winners"] else Style()


def figure_lines(
    breakdown: Breakdown,
    result: Mapping[str, Any],
    labels: Sequence[str],
    cooperative: bool,
    read: Reader | None = None,
) -> list[str]:
    """A game's figures (``Game.breakdown``) as lines of text, as the browser's summary
    reads them: a line per seat (by rank when the seats are ranked: "#1 you (seat 1): sum
    25, cards left 4, cancelled 12"), then the table's own figures on one line. (Lines, not
    a grid: the side panel is narrow and a line wraps readably.) In ``read``'s language."""
    say = read or reader("en")
    ranked = not cooperative and len(labels) > 1
    seats = sorted(
        range(len(breakdown["seats"])), key=lambda s: (result["ranks"][s], s) if ranked else s
    )
    lines = []
    for s in seats:
        rank = f"#{say(result['ranks'][s])} " if ranked else ""
        figures = ", ".join(
            f"{say(heading)} {say(figure)}"
            for heading, figure in zip(breakdown["columns"], breakdown["seats"][s], strict=True)
        )
        lines.append(f"{rank}{say(labels[s])}: {figures}")
    if breakdown["table"]:
        lines.append(
            " · ".join(f"{say(heading)} {say(figure)}" for heading, figure in breakdown["table"])
        )
    return lines
