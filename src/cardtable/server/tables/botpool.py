"""Bots that think, in worker processes, so they never hold the server's event loop.

The server keeps each such bot as a :class:`RemoteBot`: its spec and its pickled state (a few
hundred bytes to 4 KB: what it remembers of the game, its random generator). A decision is one
call to a free worker process of the :class:`BotPool`: the worker unpickles the bot, asks it
(``choose`` or ``react``), and sends back the answer and the bot's new pickled state. A worker
holds no bot between calls, so any worker can serve any bot, and killing a worker loses nothing
but the one call it was running.

Each worker runs one call at a time. A call that is not answered within the time limit (counted
from the moment a worker took it, not while it waited for a free worker) gets its worker killed
(SIGKILL) and ``TimeoutError``; a worker that dies (a crash in the bot, or a signal) gives
:class:`WorkerGone`; an exception inside the bot gives :class:`BotFailed` with its text. A new
worker is started for the next call. Calls on one bot are run one after another (its state
passes from one call to the next).

Calls that wait for a worker are served fairly, not first come first served: each call names
its ``share`` (the server passes the player who created the table) and whether a person waits
on it. Calls a person waits on go before calls of tables made only of bots, and within each of
these two lanes the shares take turns (round-robin), so neither many tables of bots nor many
tables of one player hold every worker while another player's bot waits.

Workers are separate Python processes (``python -m cardtable.server.tables.botpool``) that speak
length-prefixed pickles on their stdin/stdout; they see the server's ``sys.path``, exit when
the server closes their stdin, and on Linux are killed with the server (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import struct
import sys
import time
from collections import deque
from collections.abc import Hashable
from typing import Any

#: worker processes started by default (the machine's cores, at most 2; see docs/server.md)
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
_HEADER = struct.Struct("!I")


class BotFailed(Exception):
    """The bot raised an exception in its worker; the text says which."""


class WorkerGone(Exception):
    """The worker process died during the call (a crash, a signal, a broken pipe)."""


class RemoteBot:
    """A bot that lives as pickled state in the server and thinks in a worker process."""

    def __init__(self, bot: Any, spec: str = "") -> None:
        self.spec = spec or type(bot).__name__
        self.blob = pickle.dumps(bot, protocol=pickle.HIGHEST_PROTOCOL)
        self.methods = frozenset(m for m in ("choose", "react") if callable(getattr(bot, m, None)))
        self.lock = asyncio.Lock()  # one call at a time: each call starts from the last state
        self.calls = 0

    def can(self, method: str) -> bool:
        return method in self.methods

    def __repr__(self) -> str:
        return f"RemoteBot({self.spec!r}, {len(self.blob)} bytes)"


class _FairQueue:
    """Calls waiting for a worker: the ``person`` lane first, then the bots-only lane; within
    a lane one call of each share in turn (a share served goes to the back of its lane)."""

    def __init__(self) -> None:
        # lane -> share -> that share's waiting calls, oldest first (dicts keep the turn order)
        self.lanes: tuple[dict[Hashable, deque[asyncio.Future]], ...] = ({}, {})

    def push(self, future: asyncio.Future, share: Hashable, person: bool) -> None:
        lane = self.lanes[0 if person else 1]
        lane.setdefault(share, deque()).append(future)

    def pop(self) -> asyncio.Future | None:
        """The next waiting call still wanted, or None."""
        for lane in self.lanes:
            while lane:
                share, calls = next(iter(lane.items()))
                future = calls.popleft()
                del lane[share]  # its turn is used: to the back of the lane if it waits still
                if calls:
                    lane[share] = calls
                if not future.done():
                    return future
        return None

    def all(self) -> list[asyncio.Future]:
        return [f for lane in self.lanes for calls in lane.values() for f in calls]

    def clear(self) -> None:
        for lane in self.lanes:
            lane.clear()

    def __len__(self) -> int:
        return sum(not f.done() for f in self.all())


class _Worker:
    """One worker process and its pipes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.calls = 0

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    async def call(self, request: tuple) -> tuple:
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(_HEADER.pack(len(data)) + data)
            await self.proc.stdin.drain()
            size = _HEADER.unpack(await self.proc.stdout.readexactly(_HEADER.size))[0]
            answer = pickle.loads(await self.proc.stdout.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError, BrokenPipeError) as e:
            raise WorkerGone(f"the bot worker stopped (exit code {self.proc.returncode})") from e
        self.calls += 1
        return answer

    def kill(self) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()


class BotPool:
    """Up to ``workers`` worker processes, started when first needed, each running one call."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.size = workers
        self.idle: list[_Worker] = []
        self.busy = 0  # workers taken by a call, or being started for one
        self.waiting = _FairQueue()
        self.started = 0  # worker processes started (replacements included)
        self.killed = 0  # workers killed for a call over its time limit
        self.closed = False
        self._reaping: set[asyncio.Task] = set()

    async def call(
        self,
        bot: RemoteBot,
        method: str,
        view: dict,
        legal: list[str],
        timeout: float,
        share: Hashable = None,
        person: bool = True,
    ) -> Any:
        """``bot.method(view, legal)`` in a worker, at most ``timeout`` seconds of thinking.

        While every worker is busy the call waits its turn among the other calls of ``share``
        (default: this bot's own); ``person``: a person waits for it (else: served after
        every waiting call a person waits for)."""
        async with bot.lock:
            worker = await self._acquire(bot if share is None else share, person)
            ok = False
            try:
                answer = await asyncio.wait_for(
                    worker.call((method, bot.blob, view, legal)), timeout
                )
                ok = True
            except TimeoutError:
                self.killed += 1
                raise
            finally:
                # a call that did not end with an answer leaves the pipe mid-message: the
                # worker is never used again (killed if it still runs)
                self._release(worker, ok)
            status, result, blob = answer
            if status != "ok":
                raise BotFailed(result)
            bot.blob = blob
            bot.calls += 1
            return result

    async def _acquire(self, share: Hashable, person: bool) -> _Worker:
        if self.closed:
            raise WorkerGone("the bot pool is closed")
        while self.idle:
            worker = self.idle.pop()
            if worker.alive:
                self.busy += 1
                return worker
        if self.busy < self.size:
            self.busy += 1
            try:
                return await self._start()
            except BaseException:
                self.busy -= 1
                self._wake()
                raise
        future = asyncio.get_running_loop().create_future()
        self.waiting.push(future, share, person)
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # handed a worker just now
                self._release(future.result(), True)
            raise

    def _release(self, worker: _Worker, reuse: bool) -> None:
        kept: _Worker | None = worker
        if not reuse or not worker.alive:
            self._retire(worker)
            kept = None
        future = self.waiting.pop()
        if future is not None:
            if kept is not None:
                future.set_result(kept)  # stays busy: handed on
            else:  # the worker is gone: a new one is started for the waiter
                self.busy -= 1
                self._wake(future)
            return
        self.busy -= 1
        if kept is not None:
            self.idle.append(kept)

    def _wake(self, future: asyncio.Future | None = None) -> None:
        """A worker slot is free: start a worker for ``future`` (a waiter already taken from
        the queue), else for the next waiter if any."""
        if self.closed:
            if future is not None and not future.done():
                future.set_exception(WorkerGone("the bot pool is closed"))
            return
        if future is None:
            if self.busy >= self.size:
                return
            future = self.waiting.pop()
            if future is None:
                return
        self.busy += 1

        async def start() -> None:
            try:
                worker = await self._start()
            except BaseException as e:  # noqa: BLE001 - handed to the waiter
                self.busy -= 1
                if not future.done():
                    future.set_exception(WorkerGone(f"cannot start a bot worker: {e}"))
                self._wake()
                return
            if future.done():  # the waiter gave up meanwhile
                self._release(worker, True)
            else:
                future.set_result(worker)

        self._track(asyncio.get_running_loop().create_task(start()))

    def _retire(self, worker: _Worker) -> None:
        worker.kill()
        with contextlib.suppress(Exception):
            assert worker.proc.stdin is not None
            worker.proc.stdin.close()
        self._track(asyncio.get_running_loop().create_task(self._reap(worker)))

    async def _reap(self, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            await worker.proc.wait()

    def _track(self, task: asyncio.Task) -> None:
        self._reaping.add(task)
        task.add_done_callback(self._reaping.discard)

    async def _start(self) -> _Worker:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "cardtable.server.tables.botpool",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        self.started += 1
        worker = _Worker(proc)
        # the worker says it is ready once its imports are done: a slow start is not thinking
        try:
            await asyncio.wait_for(worker.call(("ping", b"", None, None)), 60)
        except BaseException:
            worker.kill()
            raise
        return worker

    async def close(self) -> None:
        """Stop every worker (closing stdin ends an idle one; a busy one is killed)."""
        self.closed = True
        for future in self.waiting.all():
            if not future.done():
                future.set_exception(WorkerGone("the bot pool is closed"))
        self.waiting.clear()
        for worker in self.idle:
            with contextlib.suppress(Exception):
                assert worker.proc.stdin is not None
                worker.proc.stdin.close()
        for worker in self.idle:
            try:
                await asyncio.wait_for(worker.proc.wait(), 2)
            except TimeoutError:
                worker.kill()
        self.idle.clear()
        if self._reaping:
            await asyncio.wait(list(self._reaping), timeout=2)

    def stats(self) -> dict[str, int]:
        return {
            "workers": self.size,
            "started": self.started,
            "killed": self.killed,
            "busy": self.busy,
            "idle": len(self.idle),
            "waiting": len(self.waiting),
        }


# -- the worker process ----------------------------------------------------------------------


def _die_with_parent() -> None:
    """Linux: the kernel kills this worker when the server dies, even mid-call."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the server died before prctl: go now
            os._exit(0)


def _serve() -> None:
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    requests = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a bot's print() goes to the log
    from cardtable import bots

    for name in bots.BUILT_IN:  # warm: the first real call should not pay the imports
        bots._load(name)

    while True:
        header = requests.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return  # the server closed the pipe
        (size,) = _HEADER.unpack(header)
        method, blob, view, legal = pickle.loads(requests.read(size))
        if method == "ping":
            answer: tuple = ("ok", time.monotonic(), b"")
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            try:
                bot = pickle.loads(blob)
                result = getattr(bot, method)(view, legal)
                answer = ("ok", result, pickle.dumps(bot, protocol=pickle.HIGHEST_PROTOCOL))
                data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as e:  # noqa: BLE001 - reported to the server, which decides
                answer = ("error", f"{type(e).__name__}: {e}"[:500], b"")
                data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(_HEADER.pack(len(data)) + data)
        answers.flush()


if __name__ == "__main__":
    _serve()
