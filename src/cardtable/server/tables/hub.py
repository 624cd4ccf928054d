"""The hub: the live tables of one server process, and the one door to them.

Every command for a table (a person's action, a bot's, an undo, a seat change) runs under
that table's lock, in order, through the parts that each do one job:

- ``engine.TableEngine``: the changes themselves (act, versions and staleness, seats, undo
  and redo), checked against the rules and stored before they are applied;
- ``botrunner.BotRunner``: the bot seats (scheduling, calling bots where they think,
  replacing one that fails with the game's fallback bot, talk);
- ``broadcast.Broadcaster``: each connection's own view after every change, and presence;
- ``store.Storage``: where tables live (the SQL ``store.Store``).

The hub keeps which tables are in memory: it loads them from the store on first use, resumes
those with bots after a restart and unloads the idle ones (docs/server.md, "Memory").

With several processes (a bus), a table is loaded, run (its clocks and bots) and written only
by the process holding its lease: ``held`` is what this one holds, every claim and release
goes through ``claim`` and ``release``, and the engine refuses to load or write any other
table (``NotHolder``). Reads elsewhere come from the store (the lobby, My games).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from cardtable import games
from cardtable.core.errors import CardtableError
from cardtable.core.words import translatable
from cardtable.server.api.messages import HubError, NotHolder, StateDict
from cardtable.server.api.metrics import note_action
from cardtable.server.storage import store as db
from cardtable.server.tables import clock as clocks
from cardtable.server.tables import lifecycle
from cardtable.server.tables.botpool import DEFAULT_WORKERS, BotPool
from cardtable.server.tables.botrunner import BOT_TIMEOUT, BotRunner
from cardtable.server.tables.broadcast import Broadcaster, state_message
from cardtable.server.tables.chat import Chat
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.engine import SEAT_GRACE, PlannedTable, TableEngine
from cardtable.server.tables.live import LiveTable

_, _n = translatable("cardtable")

log = logging.getLogger("cardtable.server")

#: the hub's own names, and those of its parts that the benches (bench/fuzz.py,
#: bench/leak_check.py) and tests/test_fuzz.py, tests/test_leaks.py import from here
__all__ = ["Hub"]

#: tables leave memory when nobody uses them (no connection, no bot to act, no request): the
#: store has everything, and ``load`` rebuilds them on first use (docs/server.md, "Memory")
UNLOAD_FINISHED_AFTER = 30.0  # seconds untouched, a finished table
UNLOAD_IDLE_AFTER = 600.0  # ... an open or running one
SWEEP_EVERY = 15.0  # seconds between two looks for tables to unload
RESUME_SLICE = 0.02  # seconds of resuming tables at start before other work gets a turn


class Hub:
    """Live tables over a store. Create one per server process."""

    def __init__(
        self,
        store: db.Storage,
        bot_delay: float = 0.8,
        bot_timeout: float = BOT_TIMEOUT,
        external_bots: dict[str, str] | None = None,
        bot_workers: int = DEFAULT_WORKERS,
        seat_grace: float = SEAT_GRACE,
        min_clock: float | None = None,
        idle_close: float = lifecycle.IDLE_CLOSE,
    ) -> None:
        self.store = store
        #: seconds without a change before an unattended table is closed (0: never)
        self.idle_close = idle_close
        #: actions are stored by group commit, off the event loop
        self.writer = db.GroupCommit(store)
        self.engine = TableEngine(store, self.writer, seat_grace, min_clock)
        # every state message is the hub's ``message_for``: one place says what a
        # connection sees, for broadcasts and single answers alike
        self.broadcaster = Broadcaster(
            lambda table, conn, seen: self.message_for(table, conn, seen)
        )
        self.bots = BotRunner(
            self._bot_act,
            self.engine.replace_bot,
            self.broadcaster.broadcast,
            bot_delay,
            bot_timeout,
            external_bots,
            bot_workers,
        )
        self.tables: dict[str, LiveTable] = {}
        #: every table's chat (``chat.Chat``)
        self.chat = Chat(store)
        self.chat.guard = self.engine.guard
        #: what an unloaded table had that the store does not: its bots (what they remember)
        #: and notices; given back when the table is loaded again
        self.parked: dict[str, tuple[dict[int, tuple[str, Any]], list[str]]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None
        #: the bus to the other server processes (``bus.Bus``), None when this is the only one
        self.bus: Any = None
        self._need_cache: tuple[float, set[str]] = (-1e9, set())
        #: with a bus: the tables whose lease this process holds (claimed, taken over or
        #: created here), the only ones it may load or write (``holds``)
        self.held: set[str] = set()
        #: table id -> requests for it running here now: its lease is kept meanwhile
        self.visits: dict[str, int] = {}
        #: one claim or release of a table's lease at a time, so ``held`` follows Redis:
        #: table id -> [its lock, how many wait for it or hold it]
        self._lease_turns: dict[str, list[Any]] = {}
        self.engine.holds = self.holds

    # -- many processes (bus.py) ------------------------------------------------------------
    def holds(self, table_id: str) -> bool:
        """Whether this process may load and write the table: always without a bus; with
        one, while it holds the table's lease and its own heartbeat is fresh (a process
        paused past it may have lost every lease without knowing yet)."""
        return self.bus is None or (table_id in self.held and self.bus.fresh())

    @asynccontextmanager
    async def _lease_turn(self, table_id: str) -> AsyncIterator[None]:
        """This process's turn to claim or release the table's lease (forgotten once
        nobody waits for it)."""
        turn = self._lease_turns.setdefault(table_id, [asyncio.Lock(), 0])
        turn[1] += 1
        try:
            async with turn[0]:
                yield
        finally:
            turn[1] -= 1
            if not turn[1]:
                del self._lease_turns[table_id]

    async def claim(self, table_id: str) -> str | None:
        """The process holding the table after claiming it (this one's id if it was free or
        its holder dead; None: this process may claim nothing now). Without a bus: None."""
        if self.bus is None:
            return None
        async with self._lease_turn(table_id):
            holder: str | None = await self.bus.claim(table_id)
            if holder is not None and holder == self.bus.id:
                self.held.add(table_id)
                return holder
            self.held.discard(table_id)
            live = self.tables.get(table_id)
            if live is not None:  # lost without our knowing (a pause): not ours to run
                log.warning("table %s is held by process %s now: dropped here", table_id, holder)
                self.drop(live)
            return holder

    async def release(self, table_id: str) -> None:
        """Let go of a table's lease, unless the table is in memory or a request for it is
        running here (checked when the release runs: it may have come back meanwhile)."""
        if self.bus is None:
            return
        async with self._lease_turn(table_id):
            if table_id in self.tables or self.visits.get(table_id):
                return
            self.held.discard(table_id)
            await self.bus.release(table_id)

    async def own(self, table_id: str) -> bool:
        """Whether this process holds the table (claiming it if it is free, or its holder
        is dead): always, without a bus. A table is loaded, and written, only where held."""
        return self.bus is None or await self.claim(table_id) == self.bus.id

    @asynccontextmanager
    async def visiting(self, table_id: str) -> AsyncIterator[str | None]:
        """A request about one table: claims it and gives its holder (None: try again
        later); while the request runs here, the lease is kept; after it, let go unless the
        table stayed in memory. Without a bus: this process, always."""
        if self.bus is None:
            yield "here"
            return
        holder = await self.claim(table_id)
        if holder != self.bus.id:
            yield holder
            return
        self.visits[table_id] = self.visits.get(table_id, 0) + 1
        try:
            yield holder
        finally:
            left = self.visits[table_id] - 1
            if left:
                self.visits[table_id] = left
            else:
                del self.visits[table_id]
                await self.release(table_id)

    async def share_presence(self, every: float = 1.0) -> None:
        """With a bus: every ``every`` seconds, who is connected at the tables held here, for
        the other processes' lobbies (``Bus.share_presence``)."""
        while True:
            await asyncio.sleep(every)
            seats = {
                t.id: sorted({c.seat for c in t.conns if c.seat is not None})
                for t in self.tables.values()
                if t.conns
            }
            try:
                await self.bus.share_presence(seats)
            except Exception:  # Redis away for a moment: the next round shares it
                log.warning("sharing presence on the bus", exc_info=True)

    def drop_all(self) -> None:
        """Forget every table in memory without writing anything (this process lost its
        leases: another may hold them now); the store has what was acknowledged."""
        self.held.clear()
        for table in list(self.tables.values()):
            self.drop(table)
        self.parked.clear()

    def drop(self, table: LiveTable) -> None:
        """Forget a table another process may hold now: no write, its bots stop, and its
        connections are closed so that they reconnect to its holder."""
        self.unload(table, release=False)
        if table.bot_task is not None:
            table.bot_task.cancel()
        for conn in list(table.conns):
            conn.move()

    async def take_over(self, table_id: str) -> None:
        """A table of a dead process is ours now: load it if it needs a writer (its bots
        and clocks), else let go of it (it is loaded when someone asks for it)."""
        if table_id in self.tables:
            return
        self.held.add(table_id)  # (the bus's takeover made the lease ours)
        try:
            if table_id in self._needing_writer([table_id]):
                self.load(table_id)
        finally:  # not needed in memory (or broken): any process may load it when asked
            await self.release(table_id)

    def _needing_writer(self, ids: list[str]) -> set[str]:
        """Of these tables, those that must be loaded to go on without anyone asking: a bot
        to move, a table full but not started, a clock to run. (Asked of the store once a
        second at most: a takeover asks for each of a dead process's tables in turn.)"""
        asked, need = self._need_cache
        if time.monotonic() - asked > 1.0:
            need = set(self.store.running_with_bots()) | set(self.store.open_full_tables())
            need |= set(self.store.due_tables(time.time() + SWEEP_EVERY))
            self._need_cache = (time.monotonic(), need)
        return set(ids) & need

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The server's event loop, for work started in another thread."""
        return self.bots.loop

    @loop.setter
    def loop(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.bots.loop = loop

    @property
    def pool(self) -> BotPool:
        return self.bots.pool

    @property
    def external_bots(self) -> dict[str, str]:
        return self.bots.external_bots

    async def close(self) -> None:
        """Stop the bot workers and external bot programs (the server is stopping)."""
        for task in (self._sweeper, self._resuming):
            if task is not None:
                task.cancel()
        for table in self.tables.values():
            for bot in table.bots.values():
                self.bots.close_later(bot)
        await self.bots.close()

    # -- loading ----------------------------------------------------------------------------
    def load(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the store if this process has not seen it yet.
        With a bus, only a table this process holds (``NotHolder`` else: the caller claims
        first, ``own`` or ``visiting``)."""
        if table_id in self.tables:
            table = self.tables[table_id]
            table.used = time.monotonic()
            return table
        table = self.engine.load(table_id)
        self._seat_bots(table)
        self._unpark(table)
        self.tables[table_id] = table
        self.bots.schedule(table)  # loaded on first use, after a restart: a bot may be due
        self.arm(table)
        return table

    def _seat_bots(self, table: LiveTable) -> None:
        """The bots of an unfinished table's bot seats; one that cannot start (an external
        bot no longer offered) gives way to the game's fallback bot."""
        if table.status == "over":  # a finished table needs no bots
            return
        fallback = games.get(table.game).fallback_bot
        for i, s in enumerate(table.seats):
            if not s["bot"]:
                continue
            try:
                table.bots[i] = self.bots.make(table, i, s["bot"])
            except CardtableError as e:
                log.warning("table %s seat %s: bot %s: %s", table.id, i, s["bot"], e)
                table.bots[i] = self.bots.make(table, i, fallback)
                table.notices.append(
                    _(
                        "the {bot} bot at seat {seat} could not start; the {fallback} bot plays on",
                        bot=s["bot"],
                        seat=i + 1,
                        fallback=fallback,
                    )
                )
                self.engine.replace_bot(table, i, fallback)

    def resume_all(self) -> int:
        """Load the running tables that have a bot, and every open one whose seats are all
        taken (which an older server could leave: ``load`` mends it), and set their bots going
        (after a restart); every other table is loaded on first use. Starts the sweep that
        unloads idle tables.

        Called on the server's event loop, which is remembered for work started elsewhere."""
        loop = self.loop = asyncio.get_running_loop()
        ids = self.store.running_with_bots() + self.store.open_full_tables()
        ids += [i for i in self.store.due_tables(time.time() + SWEEP_EVERY) if i not in ids]
        self._resuming = loop.create_task(self._resume(ids))
        # (with a bus, only those nobody else holds: ``_resume`` claims each)
        if self._sweeper is None:
            self._sweeper = loop.create_task(self._sweep_loop())
        if ids:
            log.info("resuming %d tables", len(ids))
        return len(ids)

    async def _resume(self, ids: list[str]) -> None:
        """Load the tables a restart resumes (``load`` sets their bots going), a slice at a
        time: the server answers meanwhile, and a table asked for first is loaded then."""
        pause = time.monotonic() + RESUME_SLICE
        for table_id in ids:
            try:
                if table_id not in self.tables and await self.own(table_id):
                    self.load(table_id)
            except Exception:  # one broken table must not keep the others from resuming
                log.exception("resuming table %s", table_id)
            if time.monotonic() > pause:
                await asyncio.sleep(0)
                pause = time.monotonic() + RESUME_SLICE

    # -- unloading --------------------------------------------------------------------------
    async def _sweep_loop(self) -> None:
        # the idle close is looked for at least four times within its time (tests use seconds)
        every = (
            min(SWEEP_EVERY, max(0.5, self.idle_close / 4)) if self.idle_close > 0 else SWEEP_EVERY
        )
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
                await self.load_due()
                if self.idle_close > 0:
                    await self.close_idle(self.idle_close)
            except Exception:  # a bug here must not end the sweeping for good
                log.exception("sweeping idle tables")

    def sweep(self, now: float | None = None) -> int:
        """Unload the tables nobody uses: no connection, no bot acting or due, untouched for
        ``UNLOAD_FINISHED_AFTER`` (finished) or ``UNLOAD_IDLE_AFTER`` seconds. Returns how many.

        A table in use is marked used now, so its idle time counts from when it was last seen
        in use (e.g. its last connection went)."""
        now = time.monotonic() if now is None else now
        gone = []
        for table in self.tables.values():
            if (
                table.conns
                or table.lock.locked()
                or self.bots.due(table)
                or self.visits.get(table.id)
            ):
                table.used = now
            elif now - table.used >= (
                UNLOAD_FINISHED_AFTER if table.status == "over" else UNLOAD_IDLE_AFTER
            ):
                gone.append(table)
        for table in gone:
            self.unload(table)
        return len(gone)

    def unload(self, table: LiveTable, release: bool = True) -> None:
        """Forget a table this process holds; ``load`` rebuilds it from the store. Its bots
        and notices are kept aside (``parked``): external bots hold a program, which is
        stopped (it starts again on load, as after a restart). With a bus, the table's lease
        is let go (``release``), so that any process may load it next."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        if not release:  # (another process may hold it now)
            self.held.discard(table.id)
        elif self.bus is not None and self.loop is not None:
            self.loop.create_task(self.release(table.id))
        if table.clock_timer is not None:  # its deadline is in the store (load_due)
            table.clock_timer.cancel()
            table.clock_timer = None
        bots: dict[int, tuple[str, Any]] = {}
        for seat, bot in table.bots.items():
            spec = table.seats[seat]["bot"]
            if spec and self.bots.keeps(bot):
                bots[seat] = (spec, bot)
            else:
                self.bots.close_later(bot)
        if bots or table.notices:
            self.parked[table.id] = (bots, list(table.notices))

    def _unpark(self, table: LiveTable) -> None:
        """Give a table loaded again the bots and notices it had when it was unloaded."""
        parked = self.parked.pop(table.id, None)
        if parked is None:
            return
        bots, notices = parked
        for seat, (spec, bot) in bots.items():
            if seat in table.bots and table.seats[seat]["bot"] == spec:
                table.bots[seat] = bot  # the same bot, with what it remembers of the game
        table.notices[:0] = notices

    # -- creating and seating ---------------------------------------------------------------
    def check_bot(self, spec: str, game: str) -> None:
        """Refuse a seat's bot spec a web user may not use; ``BadOptions`` says why."""
        self.bots.check(spec, game)

    def create(
        self,
        creator: db.Player,
        game: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None = None,
        clock: dict[str, Any] | None = None,
        practice: str | None = None,
        steps: list[tuple[int, str]] | None = None,
    ) -> LiveTable:
        """A new table. ``seats``: "me", "open" (a free seat for a friend) or a bot spec;
        ``clock``: ``{"mode", "seconds"}`` (clock.py), None for none; ``practice`` and
        ``steps``: a practice table and the actions it starts with (``TableEngine.create``).
        With a bus, the caller claims its lease next (``own``): nobody else knows its new id
        yet."""
        table_id = self.engine.create(
            creator,
            game,
            seats,
            options,
            seed,
            self.bots.check,
            clock,
            practice=practice,
            steps=steps,
        )
        if self.bus is not None:
            self.held.add(table_id)
        table = self.load(table_id)
        self.bots.schedule(table)
        return table

    def create_planned(self, plan: PlannedTable) -> LiveTable:
        """A tournament's game (``TableEngine.create_planned``), held here, its clock
        started as at any new table."""
        self.engine.create_planned(plan, self.bots.check)
        if self.bus is not None:
            self.held.add(plan.table_id)
        table = self.load(plan.table_id)
        self.bots.schedule(table)
        return table

    async def replace(
        self,
        old: LiveTable,
        player: db.Player,
        game: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None = None,
        clock: dict[str, Any] | None = None,
    ) -> LiveTable:
        """A new table in place of ``old`` (a new deal, a restart): ``old``, if unfinished,
        must be the person's own solitaire and is closed as abandoned (a lost deal) in the
        new table's own transaction, so a crash never leaves one without the other."""
        async with old.lock:
            replaces = None
            if old.status != "over":
                self._check_own_solitaire(old, player)
                replaces = old
            table_id = self.engine.create(
                player, game, seats, options, seed, self.bots.check, clock, replaces
            )
            if self.bus is not None:  # (a new id: nobody else knows it yet)
                self.held.add(table_id)
        if replaces is not None:
            await self.changed(old)
        table = self.load(table_id)
        self.bots.schedule(table)
        return table

    async def join(self, table: LiveTable, player: db.Player, seat: int | None) -> int:
        back = await self.reclaim(table, player)
        if back is not None and seat in (None, back):
            return back
        async with table.lock:
            seat, changed = self.engine.join(table, player, seat)
        if changed:
            await self.changed(table)
        return seat

    async def invite(self, table: LiveTable, player: db.Player, seat: int, bot: db.Player) -> None:
        """The creator seats the bot account ``bot`` at the open ``seat``, if it plays with
        them: its owner, or anyone when the owner said so (``plays_with``)."""
        if table.created_by != player.id:
            raise HubError("forbidden", _("only the table's creator can invite a bot"), 403)
        if bot.bot_owner != player.id and bot.plays_with != "anyone":
            raise HubError(
                "owner_only", _("{bot} plays only at its owner's tables", bot=bot.name), 403
            )
        if not 0 <= seat < table.players:
            raise HubError(
                "bad_request",
                _(
                    "there is no seat {seat} (seats 1 to {players})",
                    seat=seat + 1,
                    players=table.players,
                ),
            )
        async with table.lock:
            _seat, changed = self.engine.join(table, bot, seat)
        if changed:
            table.notices.append(
                _("{bot} (a bot account) was invited to seat {seat}", bot=bot.name, seat=seat + 1)
            )
            await self.changed(table)

    async def hand_to_bot(self, table: LiveTable, player: db.Player, seat: int, bot: str) -> None:
        """The creator gives a seat whose person has left to a bot."""
        async with table.lock:
            self.engine.check_hand_over(table, player, seat)
            try:
                self.bots.check(bot, table.game)
                new = self.bots.make(table, seat, bot)
            except CardtableError as e:
                raise HubError("bad_request", e.reason) from None
            self.engine.hand_over(table, seat, bot)
            table.bots[seat] = new
        await self.changed(table)

    # -- leaving, resigning, abandoning (``lifecycle``) --------------------------------------
    async def leave(self, table: LiveTable, player: db.Player, resign: bool = False) -> str:
        """The person leaves or resigns their seat (``TableEngine.leave``): the seat is
        freed, goes to the game's fallback bot, or the table closes. Their connections
        watch from now on."""
        async with table.lock:
            seat = table.seat_of(player.id)
            outcome = self.engine.leave(table, player, resign)
            if outcome == "bot" and seat is not None:  # the seat is the fallback bot's now
                fallback = games.get(table.game).fallback_bot
                table.bots[seat] = self.bots.make(table, seat, fallback)
            for conn in table.conns:
                if conn.player_id == player.id:
                    conn.seat = None
        await self.changed(table)
        return outcome

    @staticmethod
    def _check_own_solitaire(table: LiveTable, player: db.Player) -> None:
        if table.players != 1 or table.seats[0]["player_id"] != player.id:
            raise HubError("forbidden", _("only your own game played alone is abandoned so"), 403)

    async def close_idle(self, idle_for: float) -> int:
        """Close as ``idle`` the open and running tables without a change for ``idle_for``
        seconds and with nobody connected (docs/server.md, "Table lifecycle"); how many."""
        before = db.now() - dt.timedelta(seconds=idle_for)
        closed = 0
        for table_id in self.store.idle_tables(before, lifecycle.IDLE_BATCH):
            live = self.tables.get(table_id)
            if live is not None and live.conns:
                continue  # someone is there: not idle, whatever the clock says
            if live is None and not await self.own(table_id):
                continue  # another process holds it: its own sweep closes it
            try:
                table = live if live is not None else self.engine.load(table_id)
            except Exception:  # one broken table must not stop the sweep
                log.exception("closing idle table %s", table_id)
                continue
            async with table.lock:
                done = self.engine.close(table, "idle")
            if live is None:  # claimed only to close it
                await self.release(table_id)
            if done:
                closed += 1
                if live is not None:
                    await self.changed(table)
        if closed:
            log.info("closed %d idle tables", closed)
        return closed

    # -- after every change -----------------------------------------------------------------
    async def changed(
        self,
        table: LiveTable,
        acted: int | None = None,
        react: bool = True,
        received: float | None = None,
    ) -> None:
        """The one way out of every change of a table, once its lock is let go: each
        connection gets its new state; after an action by seat ``acted``, the programs at
        the table hear of it and the talking bots may answer (``react``); a finished game's
        bots are let go; the next bot move is scheduled and the clock's timer set again.
        ``received``: when the action's frame was read (``perf_counter``), for its latency
        (``metrics.ACTION_SECONDS``)."""
        self.broadcaster.broadcast(table, received)
        if acted is not None:
            self.bots.tell(table)
            if react:
                await self.bots.reactions(table, acted)
        if table.status == "over":
            self.bots.retire(table)
        self.bots.schedule(table)
        self.arm(table)

    # -- acting -----------------------------------------------------------------------------
    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: str,
        version: int | None = None,
        client_id: str | None = None,
        react: bool = True,
        received: float | None = None,
    ) -> dict[str, Any]:
        """One action for ``seat``; returns the answer for the sender (ack or error).

        ``react``: let talking bots answer it (their own talk is not answered again).
        ``received``: when a person's frame was read (``perf_counter``): its latency is
        measured up to the last socket its state is written to.
        """
        async with table.lock:
            answer = await self.engine.act(table, seat, action, version, client_id)
        note_action(table.game, answer)
        if answer["type"] == "ack":
            await self.changed(table, acted=seat, react=react, received=received)
        return answer

    async def _bot_act(
        self, table: LiveTable, seat: int, action: str, react: bool
    ) -> dict[str, Any]:
        return await self.act(table, seat, action, react=react)

    # -- solitaire comfort ------------------------------------------------------------------
    async def undo(self, table: LiveTable, player: db.Player) -> None:
        async with table.lock:
            self.engine.undo(table, player)
        await self.changed(table)

    async def redo(self, table: LiveTable, player: db.Player) -> None:
        async with table.lock:
            self.engine.redo(table, player)
        await self.changed(table)

    def record(self, table: LiveTable) -> dict[str, Any]:
        return self.engine.record(table)

    # -- connections ------------------------------------------------------------------------
    def message_for(
        self, table: LiveTable, conn: Conn, seen: dict[Any, Any] | None = None
    ) -> StateDict:
        """What one connection may see: its seat's view and legal actions, nothing more
        (``broadcast.state_message``)."""
        return state_message(table, conn, seen)

    async def broadcast(self, table: LiveTable) -> None:
        self.broadcaster.broadcast(table)

    async def connect(self, table: LiveTable, conn: Conn) -> None:
        """Admit a connection and send it the table (``Broadcaster.connect``)."""
        self.broadcaster.connect(table, conn)

    async def disconnect(self, table: LiveTable, conn: Conn) -> None:
        self.broadcaster.disconnect(table, conn)
        self.arm(table)  # a real-time seat whose person stays away goes to a bot

    # -- clocks (clock.py) ------------------------------------------------------------------
    async def load_due(self) -> int:
        """Load the tables not in memory whose clock runs out before the next sweep (a
        turn-based table waits in the store for days): loading arms their timers. With a
        bus, only those this process holds or can claim."""
        due = [i for i in self.store.due_tables(time.time() + SWEEP_EVERY) if i not in self.tables]
        for table_id in due:
            try:
                if await self.own(table_id):
                    self.load(table_id)
            except Exception:  # one broken table must not keep the others' clocks
                log.exception("loading table %s for its clock", table_id)
        return len(due)

    def _timeouts(self, table: LiveTable, now: float, mono: float) -> dict[int, str]:
        """Seats to give to the fallback bot now, and why: out of time (past its deadline
        and the lag), or (real time) to move and gone longer than the seat grace."""
        out: dict[int, str] = {}
        if not table.clock or table.status != "running":
            return out
        for seat in table.clocked_seats():
            deadline = table.clock["deadlines"][seat]
            if deadline is not None and now >= deadline + clocks.LAG:
                out[seat] = "ran out of time"
            elif clocks.real_time(table.clock) and not table.connected(seat):
                gone = mono - table.gone_since.get(seat, table.loaded_at)
                if gone >= self.engine.seat_grace:
                    out[seat] = "stayed away"
        return out

    def arm(self, table: LiveTable) -> None:
        """Set the table's timer for its next clock event (a deadline, or the end of the
        grace of a real-time seat whose person is away)."""
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        if not table.clock or table.status != "running" or self.tables.get(table.id) is not table:
            return
        now, mono = time.time(), time.monotonic()
        when: list[float] = []
        for seat in table.clocked_seats():
            deadline = table.clock["deadlines"][seat]
            if deadline is not None:
                when.append(deadline + clocks.LAG - now)
            if clocks.real_time(table.clock) and not table.connected(seat):
                gone = mono - table.gone_since.get(seat, table.loaded_at)
                when.append(self.engine.seat_grace - gone)
        if not when:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # from a worker thread: arm it on the server's loop
            if self.loop is not None:
                self.loop.call_soon_threadsafe(self.arm, table)
            return
        table.clock_timer = loop.call_later(
            max(0.0, min(when)) + 0.01, lambda: loop.create_task(self.on_clock(table))
        )

    async def on_clock(self, table: LiveTable) -> None:
        """A clock event: every seat out of time (or away too long) goes to the game's
        fallback bot, the table is told, and the person may take the seat back."""
        table.clock_timer = None
        try:
            gone = await self._time_out(table)
        except NotHolder:  # a heartbeat late (a pause): look again once it is renewed, or
            await asyncio.sleep(1.0)  # the table is dropped meanwhile and ``arm`` does nothing
            self.arm(table)
            return
        if gone:
            await self.changed(table)
        else:
            self.arm(table)

    async def _time_out(self, table: LiveTable) -> dict[int, str]:
        """Give the seats out of time (or away too long) to the fallback bot, stored; which
        and why. Only at the table's holder, and only while it is in memory here."""
        fallback = games.get(table.game).fallback_bot
        async with table.lock:
            if self.tables.get(table.id) is not table:
                return {}
            gone = self._timeouts(table, time.time(), time.monotonic())
            if gone:  # (before anything changes in memory)
                self.engine.guard(table.id, "a clock's timeout")
            for seat, why in gone.items():
                person = table.seats[seat]
                name = person["name"] or _("a player")
                self.engine.time_out(table, seat)
                table.bots[seat] = self.bots.make(table, seat, fallback)
                for conn in table.conns:  # their open pages watch until they take it back
                    if conn.seat == seat:
                        conn.seat = None
                bot = table.seats[seat]["name"] or fallback  # its name, given once
                if why == "ran out of time":
                    said = _("{name} ran out of time; {bot} plays for {name}", name=name, bot=bot)
                else:
                    said = _("{name} stayed away; {bot} plays for {name}", name=name, bot=bot)
                table.notices.append(said)
                log.info(
                    "table %s seat %s: %s %s; the %s bot plays",
                    table.id,
                    seat,
                    person["player_id"],
                    why,
                    fallback,
                )
        return gone

    async def reclaim(self, table: LiveTable, player: db.Player) -> int | None:
        """Give a person back the seat the clock gave to a bot (they came back): the seat,
        or None if the clock took none of theirs."""
        if not table.clock or player.id not in table.clock["away"]:
            return None
        async with table.lock:
            clock = table.clock
            seat = clock["away"].index(player.id) if player.id in clock["away"] else None
            if seat is None or table.status != "running" or not table.seats[seat]["bot"]:
                return None
            self.engine.take_back(table, seat, player)
            bot = table.bots.pop(seat, None)
            if bot is not None:
                self.bots.close_later(bot)
            table.notices.append(_("{name} is back and plays again", name=player.name))
        await self.changed(table)
        return seat
