"""External bots: any program that speaks JSON lines on stdin/stdout (docs/bot-protocol.md).

One program plays one seat of one game. For each decision it gets an ``act`` message with the
seat's view and the legal actions and answers one line ``{"action": "..."}``; at the end it gets
``over`` with the result. Anything wrong with an answer -- not JSON, no action, an action that
is not legal, no answer in time, the program gone -- raises ``BotError`` naming the bot and what
it said; the table decides what that means (the simulator ends that game and goes on).

The program is started without a shell (``shlex.split``). Its output is read by a thread into a
queue, so a time limit holds whatever the program does; its stderr is kept (the last few KB) to
explain a crash.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
from typing import Any

from cardtable import games as registry
from cardtable.core.errors import BadOptions, BotError

#: the longest answer line accepted, in characters
MAX_LINE = 1 << 20
#: how much of the program's stderr is kept for error messages, in characters
STDERR_KEEP = 4096
#: how many legal actions an "is not legal" message lists
SHOW_LEGAL = 8
#: after stdin is closed, how long a program may take to exit on its own before SIGTERM
EXIT_GRACE = 0.2
#: after SIGTERM, how long before SIGKILL
TERM_GRACE = 1.0
#: answers that are talk (The Game's signals) in a row before the bot is deemed stuck
MAX_TALK = 16

_EOF = object()  # the reader's mark: the program closed its output
_TOO_LONG = object()  # the reader's mark: a line over MAX_LINE


def check_command(command: str, find: bool = True) -> list[str]:
    """The program and arguments of a bot command, or ``BadOptions`` saying what is wrong.

    With ``find``, the program must exist (on PATH or as a path), so a run can refuse a
    mistyped command before its first game.
    """
    try:
        argv = shlex.split(command)
    except ValueError as e:  # an unclosed quote
        raise BadOptions(f"cannot read the bot command {command!r}: {e}") from None
    if not argv:
        raise BadOptions("cmd: needs a command, e.g. cmd:python mybot.py")
    if find and shutil.which(argv[0]) is None:
        raise BadOptions(f"no program {argv[0]!r} to run for the bot cmd:{command}")
    return argv


class ExternalBot:
    """A seat played by an external program; see docs/bot-protocol.md."""

    games = None  # plays every game: the program decides what it understands

    def __init__(
        self,
        command: str,
        game: str,
        seat: int | None = None,
        timeout: float = 5.0,
        seed: int = 0,
    ) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.game = game
        self.seat = seat
        # the program brings its own randomness; the seed is accepted for make_bot's sake
        self.seed = seed
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise BadOptions(f"a bot's time limit is a number of seconds above 0, not {timeout!r}")
        self.timeout = float(timeout)
        self._is_talk = registry.get(game).is_talk
        self._talk_in_a_row = 0
        argv = check_command(command, find=False)  # a missing program is a BotError below
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",  # bad bytes become U+FFFD and fail as not JSON / not legal
                bufsize=1,
                # its own process group, so close() also stops what a wrapper script started
                start_new_session=os.name == "posix",
            )
        except OSError as e:
            raise BotError(self.name, f"the program could not be started: {e}") from None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque()
        self._stderr_size = 0
        self._stderr_lock = threading.Lock()
        self._closed = False
        self._readers = [
            threading.Thread(target=self._read_stdout, name=f"{self.name} stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"{self.name} stderr", daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    # -- the readers (threads) ---------------------------------------------------------------
    def _read_stdout(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    self._lines.put((_TOO_LONG, line[:200]))
                    return  # the game ends with this error; close() stops the program
                self._lines.put(line)
        except (OSError, ValueError):  # the pipe closed under us by close()
            pass
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        try:
            while chunk := stream.readline(STDERR_KEEP):
                with self._stderr_lock:
                    self._stderr.append(chunk)
                    self._stderr_size += len(chunk)
                    while self._stderr_size > STDERR_KEEP and len(self._stderr) > 1:
                        self._stderr_size -= len(self._stderr.popleft())
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        """The last few KB the program wrote to stderr."""
        with self._stderr_lock:
            return "".join(self._stderr)[-STDERR_KEEP:]

    # -- talking ---------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._gone() from None

    def _gone(self, answer: str | None = None) -> BotError:
        """The error for a program that exited (or closed its pipes)."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return BotError(self.name, "the program closed its output", answer)
        self._readers[1].join(timeout=1.0)  # let the last of stderr arrive
        tail = self.stderr_tail().strip()
        if code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        return BotError(self.name, f"the program {how}" + (f": {tail}" if tail else ""), answer)

    def choose(self, view: dict, legal: list[str]) -> str:
        """Send the act message; return the program's action, or raise ``BotError``."""
        if self._closed:
            raise BotError(self.name, "the bot was closed")
        # a line already waiting was not asked for: a program out of step with the table
        try:
            early = self._lines.get_nowait()
        except queue.Empty:
            pass
        else:
            if early is _EOF:
                raise self._gone()
            text = early[1] if isinstance(early, tuple) else early.rstrip("\n")
            raise BotError(self.name, "it wrote a line before it was asked", text)
        seat = self.seat if self.seat is not None else view.get("seat")
        self._send({"type": "act", "game": self.game, "seat": seat, "view": view, "legal": legal})
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise BotError(self.name, f"no answer within {self.timeout:g} s") from None
        if line is _EOF:
            raise self._gone()
        if isinstance(line, tuple):
            raise BotError(self.name, f"the answer is longer than {MAX_LINE} characters", line[1])
        text = line.rstrip("\r\n")
        return self._check(text, legal)

    def _check(self, text: str, legal: list[str]) -> str:
        try:
            answer = json.loads(text)
        except ValueError:
            raise BotError(self.name, "not JSON", text) from None
        if not isinstance(answer, dict):
            raise BotError(self.name, "not a JSON object like {\"action\": \"...\"}", text)
        if "action" not in answer:
            raise BotError(self.name, "no 'action' field", text)
        action = answer["action"]
        if not isinstance(action, str):
            raise BotError(self.name, f"the 'action' is not a text but {json.dumps(action)}", text)
        if action not in legal:
            shown = ", ".join(legal[:SHOW_LEGAL]) + (", ..." if len(legal) > SHOW_LEGAL else "")
            raise BotError(self.name, f"{action!r} is not legal here; legal: {shown}", text)
        # talk keeps the turn, so a program that only talks would hold the table forever
        self._talk_in_a_row = self._talk_in_a_row + 1 if self._is_talk(action) else 0
        if self._talk_in_a_row > MAX_TALK:
            raise BotError(self.name, f"{MAX_TALK} signals in a row without a move", text)
        return action

    def finish(self, result: dict[str, Any]) -> None:
        """Tell the program the game is over. A program already gone is no error here."""
        if self._closed:
            return
        with contextlib.suppress(BotError):
            self._send({"type": "over", "result": result})

    def close(self) -> None:
        """Stop the program: close its stdin, then SIGTERM, then SIGKILL; always reap it."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:  # a broken pipe while flushing
            pass
        try:
            self.proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=TERM_GRACE)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.proc.wait()
        for reader in self._readers:
            reader.join(timeout=0.5)
        if any(r.is_alive() for r in self._readers):
            # something the program started still holds its pipes: stop its whole group
            self._signal(signal.SIGKILL)
            for reader in self._readers:
                reader.join(timeout=1.0)
        for reader, stream in zip(self._readers, (self.proc.stdout, self.proc.stderr), strict=True):
            if stream and not reader.is_alive():  # closing under a blocked read could hang
                stream.close()

    def _signal(self, sig: signal.Signals) -> None:
        try:
            if os.name == "posix":
                os.killpg(self.proc.pid, sig)
            else:
                self.proc.send_signal(sig)
        except (ProcessLookupError, PermissionError):  # it exited meanwhile
            pass

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ExternalBot {self.name!r} game={self.game} seat={self.seat}>"
