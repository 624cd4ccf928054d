"""The bot runner: plays the bot seats of live tables.

A table's bot loop starts when a bot is due (``schedule``); each move is asked where the bot
thinks without holding the event loop (``call``: a worker process of the ``BotPool``, inline
for the bots that answer in microseconds, a thread of its own for external programs) and goes
through the same checked path as a person's action. A bot that fails, hangs or answers what
the rules refuse passes its seat to the game's fallback bot (``Game.fallback_bot``), and the
table is told. Bots that talk may answer any action at the table (``reactions``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from cardtable import games
from cardtable.bots import is_external, is_research, lifecycle, make_bot, names
from cardtable.core.errors import BadOptions
from cardtable.core.words import translatable
from cardtable.seeds import new_key
from cardtable.server.api.messages import NotHolder
from cardtable.server.api.metrics import note_bot
from cardtable.server.tables.botpool import DEFAULT_WORKERS, BotPool, RemoteBot
from cardtable.server.tables.live import LiveTable

_, _n = translatable("cardtable")
log = logging.getLogger("cardtable.server")

BOT_TIMEOUT = 10.0  # seconds a bot may think before its seat passes on
#: seats may name ``ext:NAME`` for an external bot the operator registered (--external-bot)
EXTERNAL = "ext:"
EXTERNAL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: built-in bots that answer in microseconds: asked on the event loop itself. Every other
#: built-in bot thinks in a worker process (botpool); external bots wait on their program in
#: a thread. See docs/server.md, "Bots".
INLINE_BOTS = ("greedy", "random")

#: plays an action for a seat the way a person's goes: (table, seat, action, react) -> answer
Act = Callable[[LiveTable, int, str, bool], Awaitable[dict[str, Any]]]


class BotRunner:
    """The bots of every live table. ``act`` plays a bot's action (checked, stored,
    broadcast: the hub's); ``replaced(table, seat, bot)`` stores a seat given to the fallback
    bot; ``changed(table)`` tells the table's connections (a notice)."""

    def __init__(
        self,
        act: Act,
        replaced: Callable[[LiveTable, int, str], None],
        changed: Callable[[LiveTable], None],
        bot_delay: float = 0.8,
        bot_timeout: float = BOT_TIMEOUT,
        external_bots: dict[str, str] | None = None,
        bot_workers: int = DEFAULT_WORKERS,
    ) -> None:
        self.act = act
        self.replaced = replaced
        self.changed = changed
        self.bot_delay = bot_delay
        self.bot_timeout = bot_timeout
        #: NAME -> COMMAND of the external bots the operator registered; web users may seat
        #: them as ``ext:NAME`` but never name a command themselves
        self.external_bots = dict(external_bots or {})
        #: worker processes for the bots that think (started when first needed)
        self.pool = BotPool(bot_workers)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._closing: set[asyncio.Task[None]] = set()  # bots being closed in the background
        self._telling: set[asyncio.Task[None]] = set()  # events on their way to programs
        #: per program, its calls and events one at a time, in the order they were made
        self._turns: weakref.WeakKeyDictionary[Any, asyncio.Lock] = weakref.WeakKeyDictionary()

    async def close(self) -> None:
        """Stop the bot workers and wait (a while) for the bots being closed."""
        await self.pool.close()
        if self._closing:
            await asyncio.wait(list(self._closing), timeout=5)

    # -- making bots ------------------------------------------------------------------------
    def make(self, table: LiveTable, seat: int, spec: str) -> Any:
        """The bot ``spec`` for ``seat``: a ``RemoteBot`` for the bots that think."""
        seed = new_key()  # a bot's randomness says nothing about the deal
        if spec.startswith(EXTERNAL):
            command = self.external_bots.get(spec[len(EXTERNAL) :])
            if command is None:
                raise BadOptions(f"no external bot called {spec!r} on this server")
            return make_bot(
                "cmd:" + command,
                table.game,
                seed,
                seat=seat,
                timeout=self.bot_timeout,
                players=table.players,
                options=table.options,
            )
        bot = make_bot(spec, table.game, seed, seat=seat)
        if spec.partition(":")[0] in INLINE_BOTS:
            return bot
        return RemoteBot(bot, spec)

    def check(self, spec: str, game: str) -> None:
        """Refuse a seat's bot spec a web user may not use; ``BadOptions`` says why."""
        if spec.startswith(EXTERNAL):
            if spec[len(EXTERNAL) :] not in self.external_bots:
                known = ", ".join(EXTERNAL + n for n in self.external_bots) or "none"
                raise BadOptions(
                    f"no external bot called {spec!r} on this server (registered: {known})"
                )
            return
        if is_external(spec):  # the server never runs a command a web user names
            raise BadOptions(
                "the server runs no commands from players; seat one of its bots (GET /api/games)"
            )
        name = spec.partition(":")[0]
        if is_research(name):  # a baseline for benches: refused as if it were not there
            raise BadOptions(
                f"no bot called {name!r} on this server; its bots are "
                f"{', '.join(names(game, research=False))} (GET /api/games)"
            )
        make_bot(spec, game)

    def keeps(self, bot: Any) -> bool:
        """Whether a bot may be kept aside while its table is unloaded (it holds no
        program: a worker's bot or an inline one)."""
        return isinstance(bot, (RemoteBot, *inline_classes()))

    # -- playing ----------------------------------------------------------------------------
    def schedule(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot must act and none is running."""
        if table.status != "running" or not table.bots:
            return
        if table.bot_task and not table.bot_task.done():
            return
        if not any(s in table.bots for s in table.state.to_act()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # called from a worker thread (a sync request handler)
            if self.loop is not None:
                self.loop.call_soon_threadsafe(self.schedule, table)
            return
        table.bot_task = loop.create_task(self._loop(table))

    def due(self, table: LiveTable) -> bool:
        """Whether a bot of the running table is to act (or acting)."""
        if table.bot_task is not None and not table.bot_task.done():
            return True
        return table.status == "running" and any(s in table.bots for s in table.state.to_act())

    async def _loop(self, table: LiveTable) -> None:
        while table.status == "running":
            due = [s for s in table.state.to_act() if s in table.bots]
            if not due:
                return
            await asyncio.sleep(self.bot_delay)
            for seat in due:
                if table.status != "running" or seat not in table.state.to_act():
                    continue
                try:
                    await self.move(table, seat)
                except NotHolder:  # a heartbeat late (a pause): again once it is renewed;
                    await asyncio.sleep(1.0)  # a table dropped meanwhile cancels this loop
                    break

    async def move(self, table: LiveTable, seat: int) -> None:
        """The seat's bot chooses and plays an action (or loses its seat)."""
        bot = table.bots[seat]
        view, legal = table.state.view(seat), table.state.legal(seat)
        version = table.version
        started = time.perf_counter()
        try:
            # a thinking bot must not stall the other tables
            action = await self.call(bot, "choose", view, legal, table)
            note_bot(table.game, table.seats[seat]["bot"] or "", time.perf_counter() - started)
        except TimeoutError:
            self.replace(
                table, seat, _("took over {seconds} s", seconds=format(self.bot_timeout, "g"))
            )
            return
        except Exception as e:  # noqa: BLE001 - any bot failure passes the seat on
            self.replace(table, seat, "failed", f" ({type(e).__name__})")
            return
        if table.version != version or table.bots.get(seat) is not bot:
            return  # the table moved on while the bot thought: ask again
        answer = await self.act(table, seat, action, True)
        if answer["type"] == "error":
            self.replace(
                table,
                seat,
                "chose an action the rules refuse",
                f" ({answer['code']})",
            )

    def _turn(self, bot: Any) -> asyncio.Lock:
        lock = self._turns.get(bot)
        if lock is None:
            lock = self._turns[bot] = asyncio.Lock()
        return lock

    def tell(self, table: LiveTable) -> None:
        """The programs at the table (external bots) hear of its last action: an event
        each, with their seat's view, sent off the event loop and in order (a program that
        does not read its input holds only its own thread)."""
        watchers = [(s, b) for s, b in table.bots.items() if lifecycle.can(b, "event")]
        if not watchers or not table.state.actions:
            return
        actor, action = table.state.actions[-1]
        public = games.get(table.game).public_action(action)
        for seat, bot in watchers:
            told = action if seat == actor else public
            task = asyncio.get_running_loop().create_task(
                self._tell(bot, actor, told, table.state.view(seat))
            )
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)

    async def _tell(self, bot: Any, actor: int, action: str | None, view: Any) -> None:
        async with self._turn(bot):
            # a program that is gone or stuck shows it at its next move, where its seat passes on
            with contextlib.suppress(Exception):
                await asyncio.wait_for(in_thread(bot.event, actor, action, view), self.bot_timeout)

    async def reactions(self, table: LiveTable, actor: int) -> None:
        """Bots that talk (The Game's signals) may answer any action at the table."""
        if not games.get(table.game).has_talk:
            return
        for seat, bot in list(table.bots.items()):
            if seat == actor or not can(bot, "react") or table.status != "running":
                continue
            options = lifecycle.talk_options(table.state, seat)
            if not options:
                continue
            try:
                said = await self.call(bot, "react", table.state.view(seat), options, table)
            except TimeoutError:  # a hung talker would hang its seat's moves too
                self.replace(
                    table, seat, _("took over {seconds} s", seconds=format(self.bot_timeout, "g"))
                )
                continue
            except Exception:  # noqa: BLE001 - talk is optional; a failing talker stays quiet
                continue
            if table.bots.get(seat) is not bot or table.status != "running":
                continue
            if said:
                await self.act(table, seat, said, False)

    def replace(self, table: LiveTable, seat: int, why: str, detail: str = "") -> None:
        """The seat's bot gives way to the game's fallback bot. ``why`` goes to every seat
        in a notice; ``detail`` only to the log, which never holds a hidden card
        (docs/server.md, "Health, metrics and logs"): the kind of error or the refusal's code,
        never the bot's action or an error's text (either may name cards of its hand)."""
        if table.status == "over" or seat not in table.bots:  # a finished seat stays as played
            return
        old = table.seats[seat]["bot"]
        log.warning("table %s seat %s: bot %s %s%s", table.id, seat, old, why, detail)
        self.close_later(table.bots[seat])  # a hung program is stopped, off the loop
        fallback = games.get(table.game).fallback_bot
        table.bots[seat] = self.make(table, seat, fallback)
        self.replaced(table, seat, fallback)
        said = dict(bot=old, seat=seat + 1, fallback=fallback)
        if why == "failed":
            notice = _("the {bot} bot at seat {seat} failed; the {fallback} bot plays on", **said)
        else:  # it took too long
            notice = _(
                "the {bot} bot at seat {seat} {why}; the {fallback} bot plays on", why=why, **said
            )
        table.notices.append(notice)
        log.info("table %s seat %s: the %s bot plays on", table.id, seat, fallback)
        self.changed(table)

    async def call(
        self, bot: Any, method: str, view: Any, legal: Any, table: LiveTable | None = None
    ) -> Any:
        """``bot.method(view, legal)`` without holding the event loop longer than a
        greedy move: in a worker process (thinking bots), inline (greedy, random), or in a
        thread of its own (external bots, which wait on their program; any other object).
        ``TimeoutError`` after ``bot_timeout`` seconds."""
        if isinstance(bot, RemoteBot):
            if table is None:
                return await self.pool.call(bot, method, view, legal, self.bot_timeout)
            # waiting for a worker: tables with a person before tables of bots only, and
            # each player's tables in turn with every other player's (botpool.py)
            person = any(s["player_id"] for s in table.seats)
            return await self.pool.call(
                bot,
                method,
                view,
                legal,
                self.bot_timeout,
                share=table.created_by or table.id,
                person=person,
            )
        if isinstance(bot, inline_classes()):
            return getattr(bot, method)(view, legal)
        async with self._turn(bot):  # after the events already on their way to it
            return await asyncio.wait_for(
                in_thread(getattr(bot, method), view, legal), self.bot_timeout
            )

    # -- the end ----------------------------------------------------------------------------
    def close_later(self, bot: Any, result: Mapping[str, Any] | None = None) -> None:
        """Tell a bot the result (if any) and close it in a thread: closing an external
        program may wait for it to exit, which must not hold the event loop."""
        if not (lifecycle.can(bot, "close") or result is not None and lifecycle.can(bot, "finish")):
            return  # (a worker's bot lives in the server as data: nothing to tell or close)

        def close() -> None:  # the lifecycle's end: the result once, then close
            with contextlib.suppress(Exception):
                if result is not None:
                    lifecycle.finish_all([bot], result)
            with contextlib.suppress(Exception):
                lifecycle.close_all([bot])

        async def later() -> None:
            if lifecycle.can(bot, "event"):  # after the events on their way to the program
                async with self._turn(bot):
                    pass
            await in_thread(close)

        task = asyncio.get_running_loop().create_task(later())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def retire(self, table: LiveTable) -> None:
        """The game is over: free what the table's bots hold (external programs)."""
        result = table.state.result()
        for bot in table.bots.values():
            self.close_later(bot, result)
        table.bots = {}


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a thread of its own (daemon). Unlike ``asyncio.to_thread``, a call
    that never returns (a hung bot) holds only its own thread, never a pool every bot shares."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if not future.done():
            future.set_result(value) if ok else future.set_exception(value)

    def run() -> None:
        try:
            value, ok = fn(*args), True
        except BaseException as e:  # noqa: BLE001 - handed to the waiting coroutine
            value, ok = e, False
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, ok, value)

    threading.Thread(target=run, name="cardtable bot", daemon=True).start()
    return await future


@functools.cache
def inline_classes() -> tuple[type, ...]:
    from cardtable.bots import _load

    return tuple(_load(name) for name in INLINE_BOTS)


def can(bot: Any, method: str) -> bool:
    """Whether a bot (in this process or a worker) has the optional hook ``method``."""
    if isinstance(bot, RemoteBot):
        return bot.can(method)
    return lifecycle.can(bot, method)
