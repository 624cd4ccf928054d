"""External bots: any program that speaks JSON lines on stdin/stdout (docs/bot-protocol.md).

A program plays one seat at a time. Protocol 2: at the start of each game it gets ``hello``
(the protocol version, game, seat, players, options, time limit, its seed and the bot options
from the spec ``cmd(level=hard):COMMAND``) and may answer with its own ``hello`` (name,
version, and ``"newgame": true`` when it can play game after game). After every action at the
table it gets an ``event`` (who did what, as its seat learns it, and its new view). For each
decision it gets an ``act`` message with the seat's view, the legal actions and the time left,
and answers one line ``{"action": "..."}``; at the end it gets ``over`` with the result.
Protocol 1 programs, which ignore messages they do not know, keep working unchanged.

Anything wrong with an answer -- not JSON, no action, an action that is not legal, no answer in
time, the program gone -- raises ``BotError`` naming the bot and what it said; the table
decides what that means (the simulator ends that game and goes on).

The program is started without a shell (``shlex.split``). Its output is read by a thread into a
queue, so a time limit holds whatever the program does; its stderr is kept (the last few KB) to
explain a crash. A program that said ``newgame`` goes back to this process's ``POOL`` after a
game that ended well, and the next game with the same command takes it (``newgame`` before
its ``hello``), so a simulation starts it once per seat and worker, not once per game.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable import games as registry
from cardtable.core.errors import BadOptions, BotError

#: the protocol version the table speaks (docs/bot-protocol.md)
PROTOCOL = 2
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
#: idle programs the pool keeps per command between games
POOL_IDLE = 8
#: bot options in a spec: how many, and the shape of a name and a value
MAX_BOT_OPTIONS = 32
OPTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,31}$")
OPTION_VALUE = re.compile(r"^[^\s()]{0,64}$")
#: a program's name and version as it gives them in its hello, at most this long
MAX_ABOUT = 64

#: ``cmd:COMMAND`` or ``cmd(name=value ...):COMMAND``
SPEC = re.compile(r"^cmd(?:\((?P<options>[^()]*)\))?:(?P<command>.*)$", re.S)

_EOF = object()  # the reader's mark: the program closed its output
_TOO_LONG = object()  # the reader's mark: a line over MAX_LINE


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The command and bot options of an external spec (``cmd(level=hard):python bot.py``),
    or ``BadOptions`` saying what is wrong."""
    match = SPEC.match(spec)
    if match is None:
        raise BadOptions(
            f"{spec!r} is not a program's spec: cmd:COMMAND or cmd(name=value ...):COMMAND"
        )
    options: dict[str, str] = {}
    for item in (match["options"] or "").split():
        name, eq, value = item.partition("=")
        if not eq or not OPTION_NAME.match(name) or not OPTION_VALUE.match(value):
            raise BadOptions(
                f"bad bot option {item!r} in {spec!r}: write name=value "
                "(a name of letters, digits, _ . -; a value without spaces)"
            )
        if name in options:
            raise BadOptions(f"the bot option {name!r} is given twice in {spec!r}")
        options[name] = value
    if len(options) > MAX_BOT_OPTIONS:
        raise BadOptions(f"at most {MAX_BOT_OPTIONS} bot options, not {len(options)}")
    return match["command"], options


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


def check_spec(spec: str) -> None:
    """Refuse a broken external spec before a run, without starting the program."""
    command, _ = parse_spec(spec)
    check_command(command)


class Program:
    """One running program: its process, the threads reading its output, its stderr tail."""

    def __init__(self, command: str, name: str) -> None:
        self.command = command
        self.name = name
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
            raise BotError(name, f"the program could not be started: {e}") from None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque()
        self._stderr_size = 0
        self._stderr_lock = threading.Lock()
        self.stopped = False
        self._readers = [
            threading.Thread(target=self._read_stdout, name=f"{name} stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"{name} stderr", daemon=True),
        ]
        for reader in self._readers:
            reader.start()

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

    @property
    def alive(self) -> bool:
        return not self.stopped and self.proc.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self.gone() from None

    def waiting(self) -> Any:
        """A line (or mark) already written, or None."""
        try:
            return self._lines.get_nowait()
        except queue.Empty:
            return None

    def next(self, timeout: float) -> Any:
        """The next line (or mark), or None when ``timeout`` passes first."""
        try:
            return self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None

    def gone(self, answer: str | None = None) -> BotError:
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

    def stop(self) -> None:
        """Stop the program: close its stdin, then SIGTERM, then SIGKILL; always reap it."""
        if self.stopped:
            return
        self.stopped = True
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


class ProgramPool:
    """Programs that can play game after game (their hello said ``"newgame": true``), kept
    idle between games and taken again by the next game with the same command."""

    def __init__(self, idle: int = POOL_IDLE) -> None:
        self.idle = idle
        self._free: dict[str, list[Program]] = {}
        self._lock = threading.Lock()
        self._pid = 0  # the process whose exit closes the pool (workers are forked)
        #: how many programs were started and how many games were handed a kept one
        self.started = 0
        self.reused = 0

    def take(self, command: str, name: str) -> tuple[Program, bool]:
        """A kept program for ``command`` (True) or a newly started one (False)."""
        with self._lock:
            free = self._free.get(command, [])
            while free:
                program = free.pop()
                if program.alive and program.waiting() is None:
                    self.reused += 1
                    return program, True
                program.stop()
            self.started += 1
        return Program(command, name), False

    def give(self, program: Program) -> None:
        """Keep ``program`` for the next game (or stop it when enough are kept)."""
        with self._lock:
            if self._pid != os.getpid():  # close the kept programs when this process exits
                self._pid = os.getpid()
                import multiprocessing.util

                # runs at the exit of the main process and of a pool's worker processes
                multiprocessing.util.Finalize(None, self.close, exitpriority=20)
            free = self._free.setdefault(program.command, [])
            if len(free) < self.idle and program.alive:
                free.append(program)
                return
        program.stop()

    def close(self) -> None:
        """Stop every kept program."""
        with self._lock:
            kept = [p for free in self._free.values() for p in free]
            self._free.clear()
        for program in kept:
            program.stop()


#: this process's pool (a simulation's worker keeps its own)
POOL = ProgramPool()


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
        players: int | None = None,
        options: dict[str, Any] | None = None,
        bot_options: dict[str, str] | None = None,
        pool: ProgramPool | None = POOL,
    ) -> None:
        self.command = command
        self.bot_options = dict(bot_options or {})
        opts = " ".join(f"{k}={v}" for k, v in self.bot_options.items())
        self.name = f"cmd({opts}):{command}" if opts else f"cmd:{command}"
        self.game = game
        self.seat = seat
        self.seed = seed  # sent in hello: a bot's seed says nothing about the deal
        self.options = dict(options or {})
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise BadOptions(f"a bot's time limit is a number of seconds above 0, not {timeout!r}")
        self.timeout = float(timeout)
        self._is_talk = registry.get(game).is_talk
        self._talk_in_a_row = 0
        self.pool = pool
        if pool is not None:
            self.program, self.reused = pool.take(command, self.name)
        else:
            self.program, self.reused = Program(command, self.name), False
        #: the program's own hello (name, version, newgame ...), once it has answered
        self.about: dict[str, Any] = {}
        self._greeted = False
        self._failed = False
        self._closed = False
        # events that happen while the program thinks (another thread's action) wait until
        # it has answered: it is never sent a line between an act and its answer
        self._lock = threading.Lock()
        self._choosing = False
        self._later: list[dict[str, Any]] = []
        if players is not None:
            self._hello(players)

    @property
    def proc(self) -> subprocess.Popen[str]:
        return self.program.proc

    def stderr_tail(self) -> str:
        """The last few KB the program wrote to stderr."""
        return self.program.stderr_tail()

    # -- talking ---------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.program.send(message)
        except BotError:
            self._failed = True
            raise

    def _fail(self, reason: str, answer: str | None = None) -> BotError:
        self._failed = True
        return BotError(self.name, reason, answer)

    def _hello(self, players: int, seat: int | None = None) -> None:
        """Greet the program at the start of a game (once); a kept one hears newgame first."""
        self._greeted = True
        if self.reused:
            self._send({"type": "newgame"})
        self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "game": self.game,
                "seat": self.seat if self.seat is not None else seat,
                "players": players,
                "options": self.options,
                "time_limit": self.timeout,
                "seed": self.seed,
                "bot_options": self.bot_options,
            }
        )

    def _greet_from(self, view: Mapping[str, Any]) -> None:
        if not self._greeted:
            self._hello(int(view.get("players", 1)), view.get("seat"))

    def _take_hello(self, text: str) -> bool:
        """Whether ``text`` is the program's hello (kept in ``about``) rather than an answer."""
        if not text.startswith("{") or '"hello"' not in text:
            return False
        try:
            message = json.loads(text)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("type") != "hello":
            return False
        about = {k: message[k] for k in ("name", "version") if isinstance(message.get(k), str)}
        self.about = {k: v[:MAX_ABOUT] for k, v in about.items()}
        self.about["newgame"] = message.get("newgame") is True
        offered = message.get("options")
        if isinstance(offered, list) and all(isinstance(o, str) for o in offered):
            unknown = sorted(set(self.bot_options) - set(offered))
            if unknown:
                raise self._fail(
                    f"the program has no option {', '.join(unknown)} (it offers: "
                    f"{', '.join(offered[:SHOW_LEGAL]) or 'none'})",
                    text,
                )
        return True

    def _unasked(self) -> None:
        """Lines written when nothing was asked: the program's hello, or out of step."""
        while (early := self.program.waiting()) is not None:
            text = self._text(early)
            if not self._take_hello(text):
                raise self._fail("it wrote a line before it was asked", text)

    def _text(self, line: Any) -> str:
        """A line the program wrote, or the error for its end or an overlong line."""
        if line is _EOF:
            self._failed = True
            raise self.program.gone()
        if isinstance(line, tuple):
            raise self._fail(f"the answer is longer than {MAX_LINE} characters", line[1])
        return str(line).rstrip("\r\n")

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """Send the act message; return the program's action, or raise ``BotError``."""
        if self._closed:
            raise BotError(self.name, "the bot was closed")
        self._greet_from(view)
        self._unasked()
        seat = self.seat if self.seat is not None else view.get("seat")
        with self._lock:
            self._choosing = True
        try:
            action = self._ask(
                {
                    "type": "act",
                    "game": self.game,
                    "seat": seat,
                    # (the bot loop hands a Mapping and a sequence, built when read:
                    # the JSON encoder takes only a dict and a list)
                    "view": dict(view),
                    "legal": list(legal),
                    "time_left": self.timeout,
                },
                legal,
            )
        finally:
            with self._lock:
                self._choosing = False
                later, self._later = self._later, []
        for message in later:
            self._send(message)
        return action

    def _ask(self, message: dict[str, Any], legal: Sequence[str]) -> str:
        self._send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            line = self.program.next(deadline - time.monotonic())
            if line is None:
                raise self._fail(f"no answer within {self.timeout:g} s")
            text = self._text(line)
            if not self._take_hello(text):
                return self._check(text, legal)

    def event(self, actor: int, action: str | None, view: Mapping[str, Any]) -> None:
        """Tell the program what happened at the table: ``actor`` did ``action`` (None while
        it stays secret from this seat), and this seat's view now. No answer is expected."""
        if self._closed:
            return
        self._greet_from(view)
        message = {"type": "event", "seat": actor, "action": action, "view": view}
        with self._lock:
            if self._choosing:
                self._later.append(message)
                return
        self._send(message)

    def _check(self, text: str, legal: Sequence[str]) -> str:
        try:
            answer = json.loads(text)
        except ValueError:
            raise self._fail("not JSON", text) from None
        if not isinstance(answer, dict):
            raise self._fail('not a JSON object like {"action": "..."}', text)
        if "action" not in answer:
            raise self._fail("no 'action' field", text)
        action = answer["action"]
        if not isinstance(action, str):
            raise self._fail(f"the 'action' is not a text but {json.dumps(action)}", text)
        if action not in legal:
            shown = ", ".join(legal[:SHOW_LEGAL]) + (", ..." if len(legal) > SHOW_LEGAL else "")
            raise self._fail(f"{action!r} is not legal here; legal: {shown}", text)
        # talk keeps the turn, so a program that only talks would hold the table forever
        self._talk_in_a_row = self._talk_in_a_row + 1 if self._is_talk(action) else 0
        if self._talk_in_a_row > MAX_TALK:
            raise self._fail(f"{MAX_TALK} signals in a row without a move", text)
        return action

    def finish(self, result: dict[str, Any]) -> None:
        """Tell the program the game is over. A program already gone is no error here."""
        if self._closed:
            return
        with contextlib.suppress(BotError):
            self._send({"type": "over", "result": result})

    def close(self) -> None:
        """End this seat's game: a program that plays game after game and did nothing wrong
        goes back to the pool; any other is stopped (stdin closed, SIGTERM, SIGKILL)."""
        if self._closed:
            return
        self._closed = True
        keep = False
        if self.pool is not None and not self._failed and self.program.alive:
            try:
                self._unasked()  # a hello still unread, or a line out of step
                keep = bool(self.about.get("newgame"))
            except BotError:
                keep = False
        if keep and self.pool is not None:
            self.pool.give(self.program)
        else:
            self.program.stop()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ExternalBot {self.name!r} game={self.game} seat={self.seat}>"
