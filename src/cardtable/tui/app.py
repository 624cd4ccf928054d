"""The play app: one game at the keyboard, against bots (or watching them).

The screen shows only the view of the person's seat (the spectator view when nobody plays),
the legal actions of that seat, and at the end ``result()``. Bots act on a timer so a person can
follow them; ``bot_delay=0`` plays them as fast as the event loop goes (tests).

Moves can be made four ways, all ending in ``Table.act``: the move list (Tab reaches it, the
arrows move in it, Enter or a click plays), a click on a card, the game's shortcut keys, and a
typed action in the notation of RULES.md. Only the list and the typed move take the focus, so the
keys always reach one of them; the prompts speak of keys, as a terminal is played by keys.

What is the game's own (its board, its clicks and keys, its status line) comes from its terminal
adapter (``tui.games``); this app names no game. Undo, hint and peek are offered as the game
says (``Game.tools_for``: alone); the log and the end are in the game's words. The log reads
as the browser's (``Table.log``: ``describe_action``, a secret resolved once every seat has
chosen, news such as a deal's scoring), with the screen's own notes between its lines; the end
is ``result_lines``, ``breakdown`` and ``result_notes``.

A deal played alone with no move left and not won is held open (``Table.stuck``): the screen
says so, and undo and the hint still work. Restart (r) and a new deal (n), where the game
offers them (alone), save the deal as it stands first, and ask in the middle of a deal.

Every word reads in the person's language (``lang``, else the terminal's ``LANG``): the app
holds its ``Reader`` (``read``) and puts through it the screen's own words (the ``tui``
domain), the game's (the log, move labels, the end) and the footer's (``speak_bindings``).
"""

from __future__ import annotations

import contextlib
import os
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from cardtable.core.errors import IllegalAction
from cardtable.core.protocol import View
from cardtable.core.words import translatable
from cardtable.i18n.languages import from_environment
from cardtable.i18n.reader import reader
from cardtable.seeds import new_deal_seed
from cardtable.tui.boards import seat_label, seat_word
from cardtable.tui.games import board_for
from cardtable.tui.table import BotFailed, Table
from cardtable.tui.widgets import Board, ConfirmQuit, HandOver, speak_bindings

_, _n = translatable("tui")

CSS = """
Screen { layout: vertical; }
#main { height: 1fr; }
#board-pane { width: 1fr; }
#side { width: 36; border-left: solid $primary-darken-2; padding: 0 1; }
#status { height: auto; margin-bottom: 1; }
#moves { height: 1fr; min-height: 4; border: none; padding: 0; }
#moves:focus { background-tint: $foreground 5%; }
#result { height: auto; display: none; }
#log { height: 7; border-top: solid $primary-darken-2; scrollbar-size-vertical: 1; }
#message { height: auto; padding: 0 1; }
#message.error { color: $error; text-style: bold; }
#entry { border: none; height: 1; padding: 0 1; background: $boost; }
#entry:focus { background: $primary 20%; }
PlayApp.over #moves { display: none; }
PlayApp.over #result { display: block; }
"""


#: what the screen says of a stuck deal (``Table.stuck``)
STUCK = _("No move left: undo (u), restart (r), or deal again (n)")


def merged(notes: list[tuple[int, str]], log: list[tuple[int, str]]) -> list[str]:
    """The game's log lines (each with the number of the action it is of) with the screen's
    notes (each with the number of actions before it) between them, in order."""
    lines, k = [], 0
    for n, text in log:
        while k < len(notes) and notes[k][0] <= n:
            lines.append(notes[k][1])
            k += 1
        lines.append(text)
    return lines + [line for _, line in notes[k:]]


class PlayApp(App[Path | None]):
    """A full-screen game. ``run()`` returns the path of the saved record (or None)."""

    CSS = CSS
    TITLE = "cardtable"
    # Textual's command palette holds only Textual's own commands, in English
    ENABLE_COMMAND_PALETTE = False
    #: the keys of every table; the others are bound in ``__init__`` from what the game offers
    BINDINGS = [
        Binding("q", "quit", _("Quit")),
        Binding("ctrl+q", "quit", _("Quit"), show=False, priority=True),
        # priority: handled as it arrives, so the keys typed right after it go to the box
        Binding("slash", "type", _("Type a move"), priority=True),
        Binding("escape", "clear", _("Back"), show=False),
    ]

    def __init__(
        self,
        game: str,
        seats: list[str],
        seed: int,
        options: dict[str, Any] | None = None,
        *,
        bot_delay: float = 0.3,
        record_dir: Path | None = None,
        lang: str | None = None,
    ) -> None:
        super().__init__()
        #: the person's language: ``lang``, else the terminal's (``LANG``)
        self.read = reader(lang or from_environment(os.environ))
        self.table = Table(game, seats, seed, options)
        self.game = game
        self.rules = self.table.rules
        #: the game's board, clicks, keys and status line
        self.adapter = board_for(self.rules, self.read)
        self.bot_delay = bot_delay
        self.record_dir = record_dir
        self.viewer: int | None = self.table.humans[0] if self.table.humans else None
        self.selected: str | None = None  # a clicked card waiting for its second click
        self.paused = False
        self.left_early = False
        self.saved: Path | None = None
        self._bot_timer: Timer | None = None
        self._last_view: dict[str, Any] | None = None
        self._bindings_key: tuple[bool, bool, bool] | None = None
        self._thinking: set[int] = set()  # bots choosing in a worker thread
        self._status: Text | None = None
        self._moves_shown: list[tuple[str, str | None]] | None = None
        #: the lines the log shows now, unwrapped (the log widget wraps them), in words
        self.events: list[str] = []
        #: the screen's own lines (not the game's), each with the number of actions before it
        self._notes: list[tuple[int, str]] = []
        for key in self.game_bindings():
            self.bind(key.key, key.action, description=key.description, show=key.show)
        speak_bindings(self, self.read)

    def game_bindings(self) -> list[Binding]:
        """The keys this table adds to the common ones, in the footer's order: undo, hint and
        peek when the game offers them here, the game's own keys, pause when bots play."""
        keys = []
        if self.rules.offers_undo(len(self.table.seats)):
            keys.append(Binding("u", "undo", _("Undo")))
        if "hint" in self.table.tools:
            keys.append(Binding("h", "hint", _("Hint")))
        if "peek" in self.table.tools:
            keys.append(Binding("x", "peek", _("Winnable? (peeks)")))
        if "restart" in self.table.tools:
            keys.append(Binding("r", "deal_again(True)", _("Restart")))
        if "new_deal" in self.table.tools:
            keys.append(Binding("n", "deal_again(False)", _("New deal")))
        keys += [
            Binding(k.key, f"game_key({n})", k.description, show=k.show)
            for n, k in enumerate(self.adapter.keys)
        ]
        if self.table.has_bots:
            keys.append(Binding("p", "pause", _("Pause bots")))
        return keys

    # -- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # kept as attributes: another screen (a hand-over, a question) may be on top when the
        # bots move, and a query would search that screen
        self.board = Board(self.adapter, links=True, show_result=False, id="board")
        self.status = Static(id="status")
        self.moves = OptionList(id="moves")
        self.result = Static(id="result")
        self.log_widget = RichLog(id="log", max_lines=200, wrap=True, markup=False, min_width=20)
        # Tab goes between the two places that take keys, the move list and the typed move: a
        # focused board or log would swallow the arrows and Enter meant for the list (the mouse
        # wheel still scrolls them)
        self.log_widget.can_focus = False
        self.message = Static(id="message")
        prompt = _("type a move, e.g. {example}  (/ to focus)", example=self._example())
        self.entry = Input(placeholder=self.read(prompt), id="entry")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-pane", can_focus=False):
                yield self.board
            with Vertical(id="side"):
                yield self.status
                yield self.moves
                yield self.result
                yield self.log_widget
        yield self.message
        yield self.entry
        yield Footer()

    def _example(self) -> str:
        if self.adapter.example:
            return self.adapter.example
        legal = self.legal()
        return legal[0] if legal else _("a move")

    def on_mount(self) -> None:
        self._open_deal()
        self.moves.focus()
        self.refresh_table()

    def _open_deal(self) -> None:
        """The title and the first lines of the log of the table's deal."""
        # a solitaire's deal number is the player's own; a shared deal's seed would show
        # the bots' hands, so it is told once the game is over
        public = self.rules.deal_is_public(len(self.table.seats), over=False)
        game = self.game_words(public)
        self.title = f"cardtable · {game}"
        names = self.table.names(self.viewer)
        who = ", ".join(self.read(seat_label(s, names)) for s in range(len(self.table.seats)))
        self.log_event(f"{game}: {who}")
        if self.viewer is None:
            self.log_event(_("Nobody at the keyboard plays: watching the bots (p pauses)."))

    def game_words(self, numbered: bool) -> str:
        """The game's title, and when ``numbered`` its deal number, in words."""
        title = self.read(self.table.title)
        if not numbered:
            return title
        # a deal number is typed back (--seed): as it is, never grouped like an amount
        deal = _("deal {seed}", seed=str(self.table.seed))
        return f"{title} · {self.read(deal)}"

    # -- showing ------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        """Redraw everything from the table, then let the bots move or end the game."""
        with self.batch_update():  # one repaint for all the widgets that change
            self._refresh_table()

    def _refresh_table(self) -> None:
        table = self.table
        new_viewer = self._next_viewer()
        if new_viewer is not None and new_viewer != self.viewer:
            self.viewer = new_viewer
            self.selected = None
            self._last_view = None
            # what the last person typed or was told may name their cards
            self.entry.value = ""
            self.say("")
            self.log_event(_("— {seat} at the keyboard —", seat=seat_word(new_viewer)))
            self.push_screen(HandOver(new_viewer))  # an opaque screen: nobody sees the switch
        view = table.view(self.viewer)
        self._note_changes(self._last_view, view)
        self._last_view = view
        names = table.names(self.viewer)
        self.board.show(view, names, self.selected)
        status = self._status_text(view)
        if status != self._status:  # an update lays the screen out again: only on a change
            self._status = status
            self.status.update(status)
        self._show_log()
        if table.finished:
            self._finish()
        else:
            self._fill_moves(view)
            self._schedule_bots()
        # the footer is rebuilt on a bindings refresh: only when what it shows can change
        bindings_key = (table.can_undo, table.over, self.paused)
        if bindings_key != self._bindings_key:
            self._bindings_key = bindings_key
            self.refresh_bindings()

    def _next_viewer(self) -> int | None:
        """The seat at the keyboard; with several people, the one the game now waits for."""
        humans = self.table.humans
        if len(humans) <= 1 or self.table.over:
            return self.viewer
        waiting = [s for s in self.table.to_act() if s in humans]
        return self.viewer if not waiting or self.viewer in waiting else waiting[0]

    def _status_text(self, view: dict[str, Any]) -> Text:
        table = self.table
        read = self.read
        text = Text()
        if table.stuck:
            text.append(read(STUCK), "bold yellow")
            return text
        if table.over:
            text.append(read(_("Game over")), "bold")
            return text
        names = table.names(self.viewer)
        acting = table.to_act()
        if self.viewer is None:
            text.append(read(_("Watching.")) + " ", "bold")
        elif self.viewer in acting:
            text.append(read(_("Your move.")) + " ", "bold yellow")
        text.append_text(self.adapter.status(view, self.viewer, acting, names))
        if self.paused:
            text.append(" " + read(_("Bots paused (p).")), "bold red")
        return text

    def _fill_moves(self, view: dict[str, Any]) -> None:
        moves = self.moves
        previous = moves.highlighted_option.id if moves.highlighted_option else None
        legal = self.legal()
        selected = self.selected
        if selected:
            chosen = [a for a in legal if self.adapter.matches_selection(selected, a)]
            legal = chosen or legal
        read, is_talk = self.read, self.rules.is_talk

        def label(action: str) -> str:
            return read(self.rules.move_label(view, action))

        plays = [a for a in legal if not is_talk(a)]
        talk = [a for a in legal if is_talk(a)]
        rows: list[tuple[str, str | None]] = [(label(a), a) for a in plays]
        if not plays:
            waiting = (
                _("no move left")
                if self.table.stuck
                else _("watching")
                if self.viewer is None
                else _("nothing to do: waiting")
            )
            rows.append((f"({read(waiting)})", None))
        if talk:
            rows.append((read(self.adapter.talk_heading), None))
            rows.extend((label(a), a) for a in talk)
        shown = self._moves_shown
        if rows == shown:
            return  # rebuilding the list is the costliest part of a redraw
        # keep the highlight on the same move, unless the list now starts differently (a turn
        # begins): then the first move is the one in reach
        same_start = bool(shown) and shown is not None and shown[0] == rows[0]
        self._moves_shown = rows
        moves.set_options(
            Option(label, id=action) if action else Option(Text(label, "dim"), disabled=True)
            for label, action in rows
        )
        ids = [o.id for o in moves.options]
        if same_start and previous is not None and previous in ids:
            moves.highlighted = ids.index(previous)
        else:
            first = next((i for i, o in enumerate(moves.options) if not o.disabled), None)
            moves.highlighted = first

    def _note_changes(self, before: dict[str, Any] | None, after: dict[str, Any]) -> None:
        """Log what the seat can see happen between two of its views."""
        if before is None:
            return
        for line in self.adapter.changes(before, after, self.table.names(self.viewer)):
            self.log_event(line)

    def log_event(self, line: str) -> None:
        """A line of the screen's own in the log, after the actions so far."""
        self._notes.append((self.table.moves, line))
        self._show_log()

    def _show_log(self) -> None:
        """The log as the seat at the keyboard may read it (``Table.log``), the screen's
        notes between its lines; written anew only when more than new lines changed (a
        secret resolved, a change of mind dropped, an undo, another person at the keyboard,
        whose own choices the last one's log may not show)."""
        read = self.read
        notes = [(k, read(line)) for k, line in self._notes]
        lines = merged(notes, [(k, read(line)) for k, line in self.table.log(self.viewer)])
        shown = self.events
        if lines[: len(shown)] == shown:
            for line in lines[len(shown) :]:
                self.log_widget.write(line)
        else:
            self.log_widget.clear()
            for line in lines:
                self.log_widget.write(line)
        self.events = lines

    def say(self, message: str, error: bool = False) -> None:
        """A line under the board, in the person's language (``message`` may be words of
        any domain, or plain)."""
        widget = self.message
        widget.update(self.read(message))
        widget.set_class(error, "error")

    # -- the end ------------------------------------------------------------------------------
    def _finish(self) -> None:
        self._cancel_bots()
        first_time = self.saved is None
        self.saved = self.table.save(self.record_dir)
        self.add_class("over")
        read, path = self.read, str(self.saved)
        text = self.adapter.result_text(self.table.view(self.viewer), self.table.names(self.viewer))
        text.append("\n\n" + read(_("Record saved: {path}", path=path)) + "\n", "bold")
        text.append(read(_("Replay: cardtable replay {path}", path=path)) + "\n\n")
        text.append(read(_("Press q to leave.")))
        self.result.update(text)
        if first_time:
            self.title = f"cardtable · {self.game_words(True)}"
            self.log_event(_("Game over. The deal was {seed}.", seed=str(self.table.seed)))
            self.say(_("Game over. Record saved: {path}", path=path))

    # -- bots -----------------------------------------------------------------------------------
    @property
    def bots_pending(self) -> bool:
        """True while a bot move is scheduled or being chosen (tests wait for this to clear)."""
        return self._bot_timer is not None or bool(self._thinking)

    def _schedule_bots(self) -> None:
        if (
            self._bot_timer is None
            and not self._thinking
            and not self.paused
            and self.table.bots_to_act()
        ):
            # a zero-interval timer trips Textual (division by zero when it runs late)
            self._bot_timer = self.set_timer(max(self.bot_delay, 0.001), self._bot_step)

    def _cancel_bots(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None

    def _bot_step(self) -> None:
        """Ask the bots to move. In a simultaneous step (Slide's reveal) every bot to act
        chooses at once; otherwise the one bot whose turn it is."""
        self._bot_timer = None
        if self.paused or self.table.over:
            return
        questions = [(seat, *self.table.bot_question(seat)) for seat in self.table.bots_to_act()]
        if not questions:
            return
        self._thinking = {seat for seat, _, _ in questions}
        # a bot may think a while (a search, an external program): not on the screen's thread
        self.run_worker(
            partial(self._think, questions), thread=True, group="bots", exit_on_error=False
        )

    def _think(self, questions: list[tuple[int, dict[str, Any], list[str]]]) -> None:
        """In a worker thread: each bot's choice, then back to the screen's thread."""
        answers: list[tuple[int, str | BotFailed]] = []
        for seat, view, legal in questions:
            try:
                answers.append((seat, self.table.bot_choose(seat, view, legal)))
            except BotFailed as e:
                answers.append((seat, e))
                break
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.call_from_thread(self._bot_answers, answers)

    def _bot_answers(self, answers: list[tuple[int, str | BotFailed]]) -> None:
        self._thinking = set()
        if self.table.over or not self.is_running:
            return
        for seat, answer in answers:
            try:
                if isinstance(answer, BotFailed):
                    raise answer
                self.table.bot_move(seat, answer)
            except BotFailed as e:
                self.paused = True
                failure = _("{failure}. The bots are paused (p to try again).", failure=e.words)
                self.say(failure, error=True)
                break
        self.refresh_table()

    # -- acting -------------------------------------------------------------------------------
    def try_act(self, action: str) -> bool:
        """Act for the seat at the keyboard; explain a refusal. True when accepted."""
        if self.viewer is None:
            self.say(_("You are watching: no seat here is played from the keyboard."), error=True)
            return False
        if self.table.over:
            self.say(
                self.read(STUCK) + "."
                if self.table.stuck
                else _("The game is over. Press q to leave."),
                error=True,
            )
            return False
        try:
            self.table.act(self.viewer, action, quiet=self._thinking)
        except IllegalAction as e:
            self.say(_("Not allowed: {action}: {reason}", action=action, reason=e.reason), True)
            return False
        except BotFailed as e:  # the action stands; a bot failed to answer it
            failure: str = _("{failure}. The bots are paused.", failure=e.words)
            self.paused = True
        else:
            failure = ""
        self.say(failure, error=bool(failure))
        self.selected = None
        self.refresh_table()
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.try_act(event.option.id)

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = " ".join(event.value.lower().split())
        if not text:
            return
        if text == "undo":  # not notation, but the word a person would type
            event.input.value = ""
            self.action_undo()
            return
        if text == "quit":
            event.input.value = ""
            await self.action_quit()
            return
        if self.try_act(text):
            event.input.value = ""
        else:
            event.input.select_all()  # kept to be corrected; typing replaces it

    def action_card(self, ref: str) -> None:
        """A click on a card of the board (its game's ``click`` says what it means)."""
        if self.viewer is None or self.table.over:
            return
        self.adapter.click(self, ref)

    # -- what a game's clicks and keys use (``tui.games.Play``) ---------------------------------
    def current_view(self) -> View:
        return self._last_view or self.table.view(self.viewer)

    def legal(self) -> list[str]:
        return self.table.legal(self.viewer) if self.viewer is not None else []

    def select(self, ref: str, hint: str) -> None:
        self.selected = None if self.selected == ref else ref
        self.say(hint if self.selected else "")
        self.refresh_table()

    # -- keys -----------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return True if self.table.can_undo else None
        if action == "pause":
            return self.table.has_bots
        if action == "hint":
            return not self.table.finished
        if action == "peek":
            return not self.table.over
        return True

    def action_type(self) -> None:
        if self.screen is not self.entry.screen:
            return  # a question or a hand-over is on top
        # at once, not deferred like focus(): keys typed right after "/" belong to the box
        self.set_focus(self.entry)

    def action_clear(self) -> None:
        if self.selected:
            self.selected = None
            self.say("")
            self.refresh_table()
        self.moves.focus()

    def action_undo(self) -> None:
        if not self.rules.offers_undo(len(self.table.seats)):
            self.say(_("This table offers no undo (a game played alone does)."), error=True)
            return
        if not self.table.can_undo:
            self.say(_("Nothing to undo."), error=True)
            return
        undone = self.table.undo()
        # the screen's notes of the actions taken back now follow the last action left
        self._notes = [(min(k, self.table.moves), line) for k, line in self._notes]
        self.log_event(_("undo: {action}", action=undone))
        self.say(_("Took back: {action}", action=undone))
        self._last_view = None
        self.refresh_table()

    def action_hint(self) -> None:
        advice = self.table.hint()
        if advice:
            action, words = advice  # words first, the notation after
            self.say(
                _("Hint: {advice} ({action})", advice=words, action=action)
                if action
                else _("Hint: {advice}", advice=words)
            )

    def action_peek(self) -> None:
        answer = self.table.peek_winnable()
        text = (
            _("no answer in time")
            if answer is None
            else _("yes, it can still be won")
            if answer
            else _("no, it can no longer be won")
        )
        self.say(_("{peeking}: {answer}", peeking=self.adapter.peek_words, answer=text))

    def action_game_key(self, n: int) -> None:
        """One of the game's own keys (``GameBoard.keys``)."""
        self.adapter.keys[n].run(self)

    def action_deal_again(self, same: bool) -> None:
        """Restart the deal (``same``) or deal a new one; in the middle of a deal, once the
        person said yes (a deal over or stuck is dealt again without a question)."""
        if isinstance(self.screen, ConfirmQuit):
            return
        if self.table.over or not self.table.moves:
            self._deal_again(same)
            return
        question = _("Restart this deal?") if same else _("Leave this deal for a new one?")
        self.push_screen(
            ConfirmQuit(question, _("Restart") if same else _("New deal")),
            lambda yes: self._deal_again(same) if yes else None,
        )

    def _deal_again(self, same: bool) -> None:
        """The deal so far saved as it stands (the person may replay it), then the same
        deal again or a new one."""
        saved = self.table.save(self.record_dir) if self.table.moves else None
        self.table.close()
        table = self.table
        seed = table.seed if same else new_deal_seed(len(table.seats))
        self.table = Table(table.game, table.seats, seed, table.options)
        self.saved, self.selected, self._last_view = None, None, None
        self._moves_shown, self._status, self._bindings_key = None, None, None
        self._notes = []
        self.remove_class("over")
        self._open_deal()
        done = _("Restarted.") if same else _("New deal.")
        if saved:
            done = _("{done} The last one is saved: {path}", done=done, path=str(saved))
        self.say(done)
        self.refresh_table()

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.say(_("Bots paused: press p to go on.") if self.paused else "")
        self.refresh_table()

    def on_unmount(self) -> None:
        self.table.close()  # an external bot's program must not outlive the screen

    async def action_quit(self) -> None:
        if isinstance(self.screen, ConfirmQuit):
            return  # asked already
        if self.table.over:  # a stuck deal too: lost already, saved as it stands
            self.exit(self.table.save(self.record_dir))
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self._cancel_bots()
                self.saved = self.table.save(self.record_dir)
                self.left_early = True
                self.exit(self.saved)

        self.push_screen(ConfirmQuit(), answered)
