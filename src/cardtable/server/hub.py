"""The hub: live tables, one writer per table.

Every command for a table (a person's action, a bot's, an undo, a seat change) runs under
that table's lock, in order. An action is checked against the rules, written to the store,
and only then acknowledged and broadcast: each connection receives its own ``view(seat)``
(spectators ``view(None)``), never anything else of the state.

Versions: every change bumps the table's ``version``. A client acts against the version it
last saw; the action is stale (refused, with a fresh view) only if that seat's view has
changed since — so the simultaneous reveal of Slide never refuses a seat because another
seat chose first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.core.errors import BadOptions, CardtableError, IllegalAction
from cardtable.core.protocol import State
from cardtable.seeds import new_deal_seed, new_key
from cardtable.server import store as db
from cardtable.server.botpool import DEFAULT_WORKERS, BotPool, RemoteBot
from cardtable.server.ratings import rating_of

log = logging.getLogger("cardtable.server")


class HubError(Exception):
    """A refused request, with a code for clients and a reason for people."""

    def __init__(self, code: str, reason: str, status: int = 400,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.status = status
        #: more fields for the answer (e.g. ``retry_after``)
        self.extra = extra or {}


#: limits on what a client controls (docs/server.md lists them)
OUTBOX = 64  # messages waiting for a slow client before it is dropped
#: messages of any type (actions, pings, syncs, bad ones) a second one player may send over
#: all its sockets together (a spectator without a name: its connection), on average ...
MESSAGE_RATE = 20.0
MESSAGE_BURST = 60  # ... and in a burst
MAX_SPECTATORS = 200  # spectator connections per table (close code 4029 beyond)
MAX_PLAYER_SOCKETS = 8  # connections of one player to one table (close code 4029 beyond)
#: presence changes (who is connected, how many watch) go out at most this often per table,
#: as small ``presence`` events: a crowd arriving or a reconnect loop is one event a turn
PRESENCE_DELAY = 0.5
MAX_ACTIVE_TABLES = 30  # unfinished tables one player may have created
MAX_BOT_TABLES = 3  # ... of them played by bots only (they play unattended, as fast as allowed)
#: tables leave memory when nobody uses them (no connection, no bot to act, no request): the
#: store has everything, and ``load`` rebuilds them on first use (docs/server.md, "Memory")
UNLOAD_FINISHED_AFTER = 30.0  # seconds untouched, a finished table
UNLOAD_IDLE_AFTER = 600.0  # ... an open or running one
SWEEP_EVERY = 15.0  # seconds between two looks for tables to unload
RESUME_SLICE = 0.02  # seconds of resuming tables at start before other work gets a turn
BOT_TIMEOUT = 10.0  # seconds a bot may think before its seat passes on
#: seconds a person must have been gone before the creator may hand their seat to a bot: a
#: page reload or a short network drop must not cost anyone their seat (--seat-grace)
SEAT_GRACE = 60.0
#: the ``actor`` of an action a bot played: ``bot:SPEC`` (a person's is their player id)
BOT_ACTOR = "bot:"
#: seats may name ``ext:NAME`` for an external bot the operator registered (--external-bot)
EXTERNAL = "ext:"
EXTERNAL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: built-in bots that answer in microseconds: asked on the event loop itself. Every other
#: built-in bot thinks in a worker process (botpool); external bots wait on their program in
#: a thread. See docs/server.md, "Bots".
INLINE_BOTS = ("greedy", "random")


@dataclass(eq=False)
class Bucket:
    """A token bucket: ``MESSAGE_RATE`` messages a second on average, bursts of
    ``MESSAGE_BURST``. One per player, shared by all the player's sockets (``Hub.connect``)."""

    tokens: float = MESSAGE_BURST
    refilled: float = 0.0
    users: int = 0  # live connections sharing it: a bucket in use is never forgotten

    def take(self, now: float) -> float:
        """0 if a message may go now (and count it), else the seconds to wait."""
        self.tokens = min(MESSAGE_BURST, self.tokens + (now - self.refilled) * MESSAGE_RATE)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / MESSAGE_RATE

    def full(self, now: float) -> bool:
        """Refilled to the brim: as good as a new bucket, so it may be forgotten."""
        return self.tokens + (now - self.refilled) * MESSAGE_RATE >= MESSAGE_BURST


@dataclass(eq=False)
class Conn:
    """One websocket connection watching a table, as a seat or a spectator.

    Messages go through a bounded outbox drained by the connection's own writer, so a
    client that does not read is dropped instead of slowing the table down.
    """

    seat: int | None
    player_id: str | None
    outbox: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    dropped: bool = False
    bucket: Bucket = field(default_factory=Bucket)
    admitted: bool = False  # Hub.connect took it (and Hub.disconnect has not let it go)

    def push(self, message: dict[str, Any]) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True  # the writer sees this and closes the socket

    def allow(self, now: float) -> float:
        """0 if a message may go now (and count it against the player), else the seconds
        to wait."""
        return self.bucket.take(now)


@dataclass(eq=False)
class LiveTable:
    id: str
    game: str
    seed: int
    players: int
    options: dict[str, Any]
    status: str
    created_by: str | None
    state: State
    seats: list[dict[str, Any]]  # {"player_id", "bot", "name"}
    version: int = 0
    redo: list = field(default_factory=list)
    bots: dict[int, Any] = field(default_factory=dict)
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seat_changed: list[int] = field(default_factory=list)
    last_legal: dict[int, list[str]] = field(default_factory=dict)
    #: "seat:client id" -> the ack, for every stored action with an id (loaded from the log):
    #: a resent action is answered again, never applied twice, even after a restart
    recent: dict[str, dict] = field(default_factory=dict)
    bot_task: asyncio.Task | None = None
    notices: list[str] = field(default_factory=list)
    #: Doublets: the fair bot watching the player's game, so hints remember flipped cards
    advisor: Any = None
    #: seat -> time.monotonic() its last connection closed (a seat never connected since
    #: the table was loaded counts as gone since ``loaded_at``)
    gone_since: dict[int, float] = field(default_factory=dict)
    loaded_at: float = field(default_factory=time.monotonic)
    #: who played each action of ``state.actions``: a player id or ``bot:SPEC`` (None: a row
    #: stored before actors were kept, taken to be the seat's present occupant)
    actors: list[str | None] = field(default_factory=list)
    #: player id -> name, for everyone who played here (a person whose seat went to a bot too)
    actor_names: dict[str, str] = field(default_factory=dict)
    #: when it was last loaded or seen in use (time.monotonic): unloaded when idle too long
    used: float = field(default_factory=time.monotonic)
    #: presence every connection was last told: (seats connected, spectators)
    presence_sent: tuple[frozenset[int], int] = (frozenset(), 0)
    presence_timer: asyncio.TimerHandle | None = None

    @property
    def solo(self) -> bool:
        return self.players == 1

    def seat_of(self, player_id: str | None) -> int | None:
        """The first seat of this table that the player holds."""
        for i, s in enumerate(self.seats):
            if player_id and s["player_id"] == player_id:
                return i
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def actor(self, seat: int) -> str | None:
        """Who plays ``seat`` now, as an action row's ``actor``."""
        s = self.seats[seat]
        if s["player_id"]:
            return s["player_id"]
        return BOT_ACTOR + s["bot"] if s["bot"] else None

    def who(self, actor: str | None, seat: int) -> dict[str, Any]:
        """``{"name", "bot"}`` of an action's actor (None: the seat's present occupant)."""
        actor = actor or self.actor(seat)
        if actor and actor.startswith(BOT_ACTOR):
            spec = actor[len(BOT_ACTOR):]
            return {"name": spec, "bot": spec}
        s = self.seats[seat]
        name = self.actor_names.get(actor) or (s["name"] if actor == s["player_id"] else None)
        return {"name": name or "player", "bot": None}

    def history(self) -> list[list[dict[str, Any]]]:
        """Per seat, who played it over time: ``[{"name", "bot", "from"}]``, ``from`` the
        index in the action log of the first action they played (0 for the first of a seat).
        A seat that never acted lists its present occupant."""
        runs: list[list[dict[str, Any]]] = [[] for _ in range(self.players)]
        last: list[str | None] = [None] * self.players
        for n, (seat, _action) in enumerate(self.state.actions):
            actor = (self.actors[n] if n < len(self.actors) else None) or self.actor(seat)
            if runs[seat] and actor == last[seat]:
                continue
            last[seat] = actor
            runs[seat].append({**self.who(actor, seat), "from": n if runs[seat] else 0})
        for seat, run in enumerate(runs):
            if not run:
                run.append({**self.who(None, seat), "from": 0})
        return runs

    def info_as(self, base: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """``info(viewer)`` from ``info(None)``: only ``creator`` and ``you`` differ."""
        if not viewer:
            return base
        seats = base["seats"]
        mine = [i for i, s in enumerate(self.seats) if s["player_id"] == viewer]
        if mine:
            seats = [{**s, "you": True} if i in mine else s for i, s in enumerate(seats)]
        return {**base, "creator": self.created_by == viewer, "seats": seats}

    def info(self, viewer: str | None = None) -> dict[str, Any]:
        """Public facts about the table. The seed only where it is public: a solitaire shows
        its deal number; a shared game's seed would reveal hidden cards until the game is over.
        As decimal text: a shared deal's 128-bit seed is beyond a JavaScript number."""
        info = table_info(
            self.id, self.game, self.players, self.options, self.status, self.seed,
            self.created_by, self.version, self.seats, {c.seat for c in self.conns}, viewer,
            can_undo=self.solo and bool(self.state.actions) and self.status != "open",
            can_redo=self.solo and bool(self.redo), notices=self.notices[-5:])
        if self.status == "over":  # who played each seat, a person then a bot that took over
            for seat, run in zip(info["seats"], self.history(), strict=True):
                seat["history"] = run
        return info


def table_info(table_id: str, game: str, players: int, options: dict[str, Any], status: str,
               seed: int, created_by: str | None, version: int,
               seats: list[dict[str, Any]], present: set[int | None], viewer: str | None, *,
               can_undo: bool = False, can_redo: bool = False,
               notices: list[str] | None = None) -> dict[str, Any]:
    """The public facts of a table, built in this one place for tables in memory and those
    described from their rows (the lobby). ``seats``: ``{"player_id", "bot", "name"}`` each;
    ``present``: the seats with a connection."""
    public_seed = players == 1 or status == "over"
    return {
        "id": table_id,
        "game": game,
        "title": games.get(game).title,
        "players": players,
        "options": options,
        "status": status,
        "seed": str(seed) if public_seed else None,
        "creator": created_by == viewer if viewer else False,
        "version": version,
        "can_undo": can_undo,
        "can_redo": can_redo,
        "seats": [
            {"seat": i, "name": s["name"], "bot": s["bot"], "taken": bool(
                s["player_id"] or s["bot"]), "you": bool(viewer and s["player_id"] == viewer),
             "connected": (i in present) if s["player_id"] else None}
            for i, s in enumerate(seats)
        ],
        "notices": notices or [],
    }


class Hub:
    """Live tables over a store. Create one per server process."""

    def __init__(self, store: db.Store, bot_delay: float = 0.8,
                 bot_timeout: float = BOT_TIMEOUT,
                 external_bots: dict[str, str] | None = None,
                 bot_workers: int = DEFAULT_WORKERS, seat_grace: float = SEAT_GRACE) -> None:
        self.store = store
        self.seat_grace = seat_grace
        self.bot_delay = bot_delay
        self.bot_timeout = bot_timeout
        #: NAME -> COMMAND of the external bots the operator registered; web users may seat
        #: them as ``ext:NAME`` but never name a command themselves
        self.external_bots = dict(external_bots or {})
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tables: dict[str, LiveTable] = {}
        self._closing: set[asyncio.Task] = set()  # bots being closed in the background
        #: worker processes for the bots that think (started when first needed)
        self.pool = BotPool(bot_workers)
        #: actions are stored by group commit, off the event loop
        self.writer = db.GroupCommit(store)
        #: what an unloaded table had that the store does not: its bots (what they remember)
        #: and notices; given back when the table is loaded again
        self.parked: dict[str, tuple[dict[int, tuple[str, Any]], list[str]]] = {}
        self._sweeper: asyncio.Task | None = None
        self._resuming: asyncio.Task | None = None
        #: player id -> the message bucket all its sockets share (Hub.connect)
        self.buckets: dict[str, Bucket] = {}
        self._buckets_swept = 0.0

    async def close(self) -> None:
        """Stop the bot workers and external bot programs (the server is stopping)."""
        for task in (self._sweeper, self._resuming):
            if task is not None:
                task.cancel()
        for table in self.tables.values():
            for bot in table.bots.values():
                self._close_later(bot)
        await self.pool.close()
        if self._closing:
            await asyncio.wait(list(self._closing), timeout=5)

    # -- loading ----------------------------------------------------------------------------
    def load(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the store if this process has not seen it yet."""
        if table_id in self.tables:
            table = self.tables[table_id]
            table.used = time.monotonic()
            return table
        row = self.store.table(table_id)
        if row is None:
            raise HubError("not_found", f"there is no table {table_id!r}", 404)
        advisor = make_advisor(row.game)
        log_rows = self.store.actions(table_id)
        actors: list[str | None] = [a.actor for a in log_rows]
        state = self._replay_log(row.id, row.game, row.seed, row.players, row.options, advisor,
                                 log_rows)
        seats = self.store.seats(table_id)
        people = {a for a in actors if a and not a.startswith(BOT_ACTOR)}
        names = self.store.names(list(people | {s.player_id for s in seats if s.player_id}))
        table = LiveTable(
            id=row.id, game=row.game, seed=row.seed, players=row.players,
            options=dict(row.options), status=row.status, created_by=row.created_by,
            state=state, version=row.version, redo=list(row.redo or []),
            seats=[{"player_id": s.player_id, "bot": s.bot,
                    "name": names.get(s.player_id) if s.player_id else s.bot} for s in seats],
            advisor=advisor, actors=actors, actor_names=names,
        )
        # rows from before actions kept their version are answered with today's
        table.recent = {f"{a.seat}:{a.client_id}": {
            "type": "ack", "id": a.client_id, "version": table.version if a.version is None
            else a.version, "action": a.action} for a in log_rows if a.client_id}
        self._reconcile(table)
        table.seat_changed = [table.version] * table.players
        running = table.status == "running"
        # what each seat may do now: the baseline its next change is measured against
        table.last_legal = {s: state.legal(s) if running else [] for s in range(table.players)}
        fallback = games.get(table.game).fallback_bot
        for i, s in enumerate(table.seats):
            if s["bot"] and table.status != "over":  # a finished table needs no bots
                try:
                    table.bots[i] = self._make_bot(table, i, s["bot"])
                except CardtableError as e:  # e.g. an external bot no longer registered
                    log.warning("table %s seat %s: bot %s: %s", table.id, i, s["bot"], e)
                    table.bots[i] = self._make_bot(table, i, fallback)
                    table.notices.append(f"the {s['bot']} bot at seat {i} could not start; "
                                         f"the {fallback} bot plays on")
                    s["bot"] = s["name"] = fallback
                    self.store.set_seat(table.id, i, None, fallback)
        self._unpark(table)
        self.tables[table_id] = table
        self.schedule_bots(table)  # loaded on first use, after a restart: a bot may be due
        return table

    def _reconcile(self, table: LiveTable) -> None:
        """Finish a change an older server stored in two commits and was killed between:
        a ``running`` table whose log ends the game becomes ``over`` with its result and
        ratings; an ``open`` table with every seat taken starts. Each in one transaction,
        written only if the stored status is still the broken one (so it happens once)."""
        if table.status == "running" and table.state.over:
            result = table.state.result()
            self.store.finish(table.id, result, rating_of(table.game, table.seats, result),
                              only_if="running")
            table.status = "over"
            log.info("table %s: its log ends the game; marked over", table.id)
        elif table.status == "open" and all(s["player_id"] or s["bot"] for s in table.seats):
            if self.store.change_table(table.id, table.version + 1, status="running",
                                       only_if="open"):
                table.version += 1
            table.status = "running"
            log.info("table %s: every seat is taken; started", table.id)

    def resume_all(self) -> int:
        """Load the running tables that have a bot, and every open one whose seats are all
        taken (which an older server could leave: ``load`` mends it), and set their bots going
        (after a restart); every other table is loaded on first use. Starts the sweep that
        unloads idle tables.

        Called on the server's event loop, which is remembered for work started elsewhere."""
        self.loop = asyncio.get_running_loop()
        ids = self.store.running_with_bots() + self.store.open_full_tables()
        self._resuming = self.loop.create_task(self._resume(ids))
        if self._sweeper is None:
            self._sweeper = self.loop.create_task(self._sweep_loop())
        return len(ids)

    async def _resume(self, ids: list[str]) -> None:
        """Load the tables a restart resumes (``load`` sets their bots going), a slice at a
        time: the server answers meanwhile, and a table asked for first is loaded then."""
        pause = time.monotonic() + RESUME_SLICE
        for table_id in ids:
            try:
                self.load(table_id)
            except Exception:  # one broken table must not keep the others from resuming
                log.exception("resuming table %s", table_id)
            if time.monotonic() > pause:
                await asyncio.sleep(0)
                pause = time.monotonic() + RESUME_SLICE

    # -- unloading --------------------------------------------------------------------------
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                self.sweep()
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
            if self._in_use(table):
                table.used = now
            elif now - table.used >= (UNLOAD_FINISHED_AFTER if table.status == "over"
                                      else UNLOAD_IDLE_AFTER):
                gone.append(table)
        for table in gone:
            self.unload(table)
        return len(gone)

    def _in_use(self, table: LiveTable) -> bool:
        if table.conns or table.lock.locked():
            return True
        if table.bot_task is not None and not table.bot_task.done():
            return True
        return table.status == "running" and any(s in table.bots
                                                 for s in table.state.to_act())

    def unload(self, table: LiveTable) -> None:
        """Forget a table this process holds; ``load`` rebuilds it from the store. Its bots
        and notices are kept aside (``parked``): external bots hold a program, which is
        stopped (it starts again on load, as after a restart)."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        bots = {}
        for seat, bot in table.bots.items():
            if isinstance(bot, (RemoteBot, *inline_classes())):
                bots[seat] = (table.seats[seat]["bot"], bot)
            else:
                self._close_later(bot)
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

    def _make_bot(self, table: LiveTable, seat: int, spec: str) -> Any:
        seed = new_key()  # a bot's randomness says nothing about the deal
        if spec.startswith(EXTERNAL):
            command = self.external_bots.get(spec[len(EXTERNAL):])
            if command is None:
                raise BadOptions(f"no external bot called {spec!r} on this server")
            return make_bot("cmd:" + command, table.game, seed, seat=seat,
                            timeout=self.bot_timeout)
        bot = make_bot(spec, table.game, seed, seat=seat)
        if spec.partition(":")[0] in INLINE_BOTS:
            return bot
        return RemoteBot(bot, spec)

    async def _call_bot(self, bot: Any, method: str, view: dict, legal: list[str],
                        table: LiveTable | None = None) -> Any:
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
            return await self.pool.call(bot, method, view, legal, self.bot_timeout,
                                        share=table.created_by or table.id, person=person)
        if isinstance(bot, inline_classes()):
            return getattr(bot, method)(view, legal)
        return await asyncio.wait_for(in_thread(getattr(bot, method), view, legal),
                                      self.bot_timeout)

    def check_bot(self, spec: str, game: str) -> None:
        """Refuse a seat's bot spec a web user may not use; ``BadOptions`` says why."""
        if spec.startswith(EXTERNAL):
            if spec[len(EXTERNAL):] not in self.external_bots:
                known = ", ".join(EXTERNAL + n for n in self.external_bots) or "none"
                raise BadOptions(f"no external bot called {spec!r} on this server "
                                 f"(registered: {known})")
            return
        if spec.startswith("cmd:"):  # the server never runs a command a web user names
            raise BadOptions("the server runs no commands from players; seat one of its "
                             "bots (GET /api/games)")
        make_bot(spec, game)

    # -- creating and joining ---------------------------------------------------------------
    def create(self, creator: db.Player, game: str, seats: list[str],
               options: dict[str, Any], seed: int | None = None) -> LiveTable:
        """A new table. ``seats``: "me", "open" (a free seat for a friend) or a bot spec."""
        try:
            rules = games.get(game)
        except CardtableError as e:
            raise HubError("bad_request", e.reason) from None
        if not seats:
            seats = ["me"]
        if seed is None:  # a shared deal from 128 secret bits; a solitaire's deal number
            seed = new_deal_seed(len(seats))
        try:
            rules.deal(seed, len(seats), options)  # an option "seed": BadOptions
            _, options = rules.check_options(len(seats), options)
            for s in seats:
                if s not in ("me", "open"):
                    self.check_bot(s, game)
        except CardtableError as e:
            raise HubError("bad_request", e.reason) from None
        # one query on the index tables(created_by, status), not a scan of every live table
        unfinished, bots_only = self.store.unfinished_tables(creator.id)
        if unfinished >= MAX_ACTIVE_TABLES:
            raise HubError("too_many_tables", f"you have {unfinished} unfinished tables; finish "
                           f"or leave some first (at most {MAX_ACTIVE_TABLES})", 429)
        if all(s not in ("me", "open") for s in seats) and bots_only >= MAX_BOT_TABLES:
            raise HubError("too_many_bot_tables", f"you have {bots_only} unfinished tables "
                           f"played by bots only; take a seat yourself, or wait for one to end "
                           f"(at most {MAX_BOT_TABLES})", 429)
        if seats.count("me") > 1:
            raise HubError("bad_request", "take one seat yourself; leave others open or to bots")
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        rows = [db.Seat(table_id=table_id, seat=i,
                        player_id=creator.id if s == "me" else None,
                        bot=None if s in ("me", "open") else s) for i, s in enumerate(seats)]
        full = "open" not in seats
        self.store.new_table(
            db.Table(id=table_id, game=game, seed=seed, players=len(seats), options=options,
                     status="running" if full else "open", created_by=creator.id,
                     redo=[], version=0), rows)
        table = self.load(table_id)
        self.schedule_bots(table)
        return table

    async def join(self, table: LiveTable, player: db.Player, seat: int | None) -> int:
        async with table.lock:
            mine = table.seat_of(player.id)
            if mine is not None:
                return mine
            if table.status == "over":
                raise HubError("game_over", "the game is over: its seats never change", 409)
            free = [i for i, s in enumerate(table.seats) if not s["player_id"] and not s["bot"]]
            if not free:
                raise HubError("table_full", "every seat at this table is taken", 409)
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise HubError("seat_taken", f"seat {seat} is not free", 409)
            others = all(s["player_id"] or s["bot"] for i, s in enumerate(table.seats)
                         if i != seat)
            table.actor_names[player.id] = player.name
            table.gone_since[seat] = time.monotonic()  # the grace counts from taking the seat
            self._bump(table, all_seats=True, fault="join", status="running" if others else None,
                       seats={seat: {"player_id": player.id, "bot": None, "name": player.name}})
        await self.broadcast(table)
        self.schedule_bots(table)
        return seat

    async def hand_to_bot(self, table: LiveTable, player: db.Player, seat: int,
                          bot: str) -> None:
        """The creator gives a seat whose person has left to a bot."""
        async with table.lock:
            if table.created_by != player.id:
                raise HubError("forbidden", "only the table's creator can hand a seat to a bot",
                               403)
            if not 0 <= seat < table.players:
                raise HubError("bad_request", f"there is no seat {seat}")
            if table.status == "over":  # who played a finished game is history
                raise HubError("game_over", "the game is over: its seats never change", 409)
            if table.seats[seat]["bot"]:
                raise HubError("bad_request", f"seat {seat} is already played by a bot")
            if table.seats[seat]["player_id"] and table.connected(seat):
                raise HubError("seat_taken", "that player is still at the table", 409)
            if table.seats[seat]["player_id"]:
                gone = time.monotonic() - table.gone_since.get(seat, table.loaded_at)
                left = self.seat_grace - gone
                if left > 0:
                    raise HubError(
                        "grace_period", f"that player left {gone:.1f} s ago and may be coming "
                        f"back: the seat can go to a bot in {left:.1f} s", 409,
                        {"retry_after": round(left + 0.05, 1)})
            if all(s["bot"] for i, s in enumerate(table.seats) if i != seat):
                # the table would become one of bots only: the same cap as creating one
                _, bots_only = self.store.unfinished_tables(player.id)
                if bots_only >= MAX_BOT_TABLES:
                    raise HubError("too_many_bot_tables", f"you have {bots_only} unfinished "
                                   f"tables of bots only; this hand-over would make another "
                                   f"(at most {MAX_BOT_TABLES})", 429)
            try:
                self.check_bot(bot, table.game)
                new = self._make_bot(table, seat, bot)
            except CardtableError as e:
                raise HubError("bad_request", e.reason) from None
            full = table.status == "open" and all(
                s["player_id"] or s["bot"] for i, s in enumerate(table.seats) if i != seat)
            self._bump(table, all_seats=True, fault="hand-to-bot",
                       status="running" if full else None,
                       seats={seat: {"player_id": None, "bot": bot, "name": bot}})
            table.bots[seat] = new
            table.notices.append(f"seat {seat} is now played by the {bot} bot")
        await self.broadcast(table)
        self.schedule_bots(table)

    # -- acting -----------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, action: Any, version: Any = None,
                  client_id: str | None = None, react: bool = True) -> dict[str, Any]:
        """One action for ``seat``; returns the answer for the sender (ack or error).

        ``react``: let talking bots answer it (their own talk is not answered again).
        """
        async with table.lock:
            answer = await self._act_locked(table, seat, action, version, client_id)
        if answer["type"] == "ack":
            await self.broadcast(table)
            if react:
                await self._reactions(table, seat)
            if table.status == "over":
                self._retire_bots(table)
            self.schedule_bots(table)
        return answer

    async def _act_locked(self, table: LiveTable, seat: int, action: Any, version: Any,
                          client_id: str | None) -> dict[str, Any]:
        key = f"{seat}:{client_id}"  # ids are the client's own: one seat's never meet another's
        if client_id and key in table.recent:
            return table.recent[key]  # a resend: answer again, apply once
        if table.status == "open":
            return error("not_started", "the table is waiting for players", client_id)
        if table.status == "over":
            return error("game_over", "the game is over: no action is legal", client_id)
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            return error("bad_message", "version must be a whole number", client_id)
        if version is not None and version < table.seat_changed[seat]:
            return error("stale", "the table has changed since you saw it: here it is now",
                         client_id)
        candidate = table.state.clone()
        try:
            candidate.act(seat, action)
        except IllegalAction as e:
            return error(e.code, e.reason, client_id)
        row = {"table_id": table.id, "n": len(candidate.actions) - 1, "seat": seat,
               "action": action, "version": table.version + 1, "client_id": client_id,
               "actor": table.actor(seat)}
        if candidate.over:  # the game's end (status, result, ratings) goes with its action
            row["finish"] = self._finish_of(table, candidate)
        # stored before acknowledged or broadcast: a crash after this line loses nothing.
        # The table's lock is held meanwhile, so its next action waits for this one.
        await commit(self.writer.submit(row))
        table.version += 1
        table.state = candidate
        table.actors.append(row["actor"])
        table.redo = []
        self._after_change(table, actor=seat)
        answer = {"type": "ack", "id": client_id, "version": table.version, "action": action}
        if client_id:  # every id the log holds (Hub.load): a table has a few hundred at most
            table.recent[key] = answer
        return answer

    def _finish_of(self, table: LiveTable, state: State) -> dict[str, Any]:
        """What the action ending ``table``'s game stores with it: result and ratings."""
        result = state.result()
        return {"result": result, "rating": rating_of(table.game, table.seats, result)}

    def _after_change(self, table: LiveTable, all_seats: bool = False,
                      actor: int | None = None) -> None:
        """Note which seats' situations changed, and finish the game if it just ended.

        A seat's situation changes when it acts itself or when what it may do (its legal
        actions) changes. Another seat's talk or simultaneous choice changes neither, so it
        never makes this seat's action stale.
        """
        if table.advisor:
            table.advisor.observe(table.state.view(0))
        running = table.status == "running"
        for seat in range(table.players):
            legal = table.state.legal(seat) if running else []
            if all_seats or seat == actor or legal != table.last_legal.get(seat):
                table.seat_changed[seat] = table.version
                table.last_legal[seat] = legal
        if table.state.over and table.status != "over":
            table.status = "over"  # stored with the action that ended it (its row's "finish")

    def _bump(self, table: LiveTable, all_seats: bool = False, *,
              seats: dict[int, dict[str, Any]] | None = None, status: str | None = None,
              fault: str | None = None) -> None:
        """A change of seats (seat -> {"player_id", "bot", "name"}) and/or status, stored
        with the table's new version in one transaction, then made to the live table.
        ``fault``: the test fault point right after that commit (``store.fault_point``)."""
        seats = seats or {}
        self.store.change_table(table.id, table.version + 1, status=status,
                                seats={i: (s["player_id"], s["bot"]) for i, s in seats.items()})
        if fault:
            db.fault_point(fault)
        for i, s in seats.items():
            table.seats[i] = s
        if status:
            table.status = status
        table.version += 1
        self._after_change(table, all_seats)

    # -- solitaire comfort ------------------------------------------------------------------
    async def undo(self, table: LiveTable, player: db.Player) -> None:
        async with table.lock:
            self._check_solo_owner(table, player)
            if not table.state.actions:
                raise HubError("nothing_to_undo", "there is nothing to undo")
            # the action out, the redo list, the version and (a finished game) the status in
            # one transaction
            status = "running" if table.status == "over" else None
            last = self.store.pop(table.id, table.version + 1, status=status)
            db.fault_point("undo")
            table.version += 1
            table.redo.append([last.seat, last.action])
            table.recent.pop(f"{last.seat}:{last.client_id}", None)  # its id may come again
            table.state = self._rebuild(table)
            del table.actors[len(table.state.actions):]
            if status:
                table.status = status
            self._after_change(table, all_seats=True)
        await self.broadcast(table)

    async def redo(self, table: LiveTable, player: db.Player) -> None:
        async with table.lock:
            self._check_solo_owner(table, player)
            if not table.redo:
                raise HubError("nothing_to_redo", "there is nothing to redo")
            seat, action = table.redo[-1]
            candidate = table.state.clone()
            candidate.act(seat, action)
            row = {"table_id": table.id, "n": len(candidate.actions) - 1, "seat": seat,
                   "action": action, "version": table.version + 1, "redo": table.redo[:-1],
                   "actor": table.actor(seat)}
            if candidate.over:
                row["finish"] = self._finish_of(table, candidate)
            self.store.append_many([row])
            db.fault_point("redo")
            table.version += 1
            table.redo.pop()
            table.state = candidate
            table.actors.append(row["actor"])
            self._after_change(table, all_seats=True)
        await self.broadcast(table)

    def _check_solo_owner(self, table: LiveTable, player: db.Player) -> None:
        if not table.solo:
            raise HubError("bad_request", "undo is for games played alone")
        if table.seats[0]["player_id"] != player.id:
            raise HubError("forbidden", "this is not your game", 403)

    def _rebuild(self, table: LiveTable) -> State:
        return self._replay_log(table.id, table.game, table.seed, table.players, table.options)

    def _replay_log(self, table_id: str, game: str, seed: int, players: int,
                    options: dict[str, Any], advisor: Any = None,
                    log_rows: list[db.Action] | None = None) -> State:
        """The table's state from its stored log (``log_rows`` if already read); ``advisor``
        watches every step."""
        state = games.get(game).deal(seed, players, options)
        if advisor:
            advisor.observe(state.view(0))
        for a in self.store.actions(table_id) if log_rows is None else log_rows:
            state.act(a.seat, a.action)  # the log was checked when written
            if advisor:
                advisor.observe(state.view(0))
        return state

    # -- bots -------------------------------------------------------------------------------
    def schedule_bots(self, table: LiveTable) -> None:
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
                self.loop.call_soon_threadsafe(self.schedule_bots, table)
            return
        table.bot_task = loop.create_task(self._bot_loop(table))

    async def _bot_loop(self, table: LiveTable) -> None:
        while table.status == "running":
            due = [s for s in table.state.to_act() if s in table.bots]
            if not due:
                return
            await asyncio.sleep(self.bot_delay)
            for seat in due:
                if table.status != "running" or seat not in table.state.to_act():
                    continue
                await self._bot_move(table, seat)

    async def _bot_move(self, table: LiveTable, seat: int) -> None:
        bot = table.bots[seat]
        view, legal = table.state.view(seat), table.state.legal(seat)
        version = table.version
        try:
            # a thinking bot must not stall the other tables
            action = await self._call_bot(bot, "choose", view, legal, table)
        except TimeoutError:
            await self._replace_bot(table, seat, f"took over {self.bot_timeout:g} s")
            return
        except Exception as e:  # noqa: BLE001 - any bot failure passes the seat on
            await self._replace_bot(table, seat, "failed", f" ({e})")
            return
        if table.version != version or table.bots.get(seat) is not bot:
            return  # the table moved on while the bot thought: ask again
        answer = await self.act(table, seat, action)
        if answer["type"] == "error":
            await self._replace_bot(table, seat, "chose an action the rules refuse",
                                    f": {action!r}: {answer['message']}")

    async def _reactions(self, table: LiveTable, actor: int) -> None:
        """Bots that talk (The Game's signals) may answer any action at the table."""
        talk = games.get(table.game).is_talk
        for seat, bot in list(table.bots.items()):
            if seat == actor or not can(bot, "react") or table.status != "running":
                continue
            options = [a for a in table.state.legal(seat) if talk(a)]
            if not options:
                continue
            try:
                said = await self._call_bot(bot, "react", table.state.view(seat), options,
                                            table)
            except TimeoutError:  # a hung talker would hang its seat's moves too
                await self._replace_bot(table, seat, f"took over {self.bot_timeout:g} s")
                continue
            except Exception:  # noqa: BLE001 - talk is optional; a failing talker stays quiet
                continue
            if table.bots.get(seat) is not bot or table.status != "running":
                continue
            if said:
                await self.act(table, seat, said, react=False)

    async def _replace_bot(self, table: LiveTable, seat: int, why: str,
                           detail: str = "") -> None:
        """``why`` goes to every seat in a notice; ``detail`` (the bot's action or error,
        which may name cards of its hand) only to the log."""
        if table.status == "over" or seat not in table.bots:  # a finished seat stays as played
            return
        old = table.seats[seat]["bot"]
        log.warning("table %s seat %s: bot %s %s%s", table.id, seat, old, why, detail)
        self._close_later(table.bots[seat])  # a hung program is stopped, off the loop
        fallback = games.get(table.game).fallback_bot
        table.bots[seat] = self._make_bot(table, seat, fallback)
        table.seats[seat]["bot"] = fallback
        table.seats[seat]["name"] = fallback
        self.store.set_seat(table.id, seat, None, fallback)
        table.notices.append(f"the {old} bot at seat {seat} {why}; the {fallback} bot "
                             f"plays on")
        await self.broadcast(table)

    def _close_later(self, bot: Any, result: dict | None = None) -> None:
        """Tell a bot the result (if any) and close it in a thread: closing an external
        program may wait for it to exit, which must not hold the event loop."""
        if not hasattr(bot, "close"):
            return

        def close() -> None:
            with contextlib.suppress(Exception):
                if result is not None and hasattr(bot, "finish"):
                    bot.finish(result)
            with contextlib.suppress(Exception):
                bot.close()

        task = asyncio.get_running_loop().create_task(in_thread(close))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _retire_bots(self, table: LiveTable) -> None:
        """The game is over: free what the table's bots hold (external programs)."""
        result = table.state.result()
        for bot in table.bots.values():
            self._close_later(bot, result)
        table.bots = {}

    # -- connections ------------------------------------------------------------------------
    def message_for(self, table: LiveTable, conn: Conn,
                    seen: dict[Any, Any] | None = None) -> dict[str, Any]:
        """What one connection may see: its seat's view and legal actions, nothing more.

        ``seen`` caches, during one broadcast, the view and legal actions per seat and the
        table info (the same for every viewer but for ``creator`` and ``you``).
        """
        seen = {} if seen is None else seen
        seat = conn.seat
        pair = seen.get(seat)
        if pair is None:
            running = table.status == "running" and seat is not None
            # last_legal is what the seat may do now (kept by every change: _after_change)
            pair = seen[seat] = (table.state.view(seat),
                                 table.last_legal.get(seat, []) if running else [])
        base = seen.get("info")
        if base is None:
            base = seen["info"] = table.info(None)
            seen["spectators"] = spectators(table)
        return {"type": "state", "version": table.version, "seat": seat,
                "table": table.info_as(base, conn.player_id), "view": pair[0],
                "legal": pair[1], "spectators": seen["spectators"]}

    async def broadcast(self, table: LiveTable) -> None:
        seen: dict[Any, Any] = {}
        for conn in list(table.conns):
            if conn.dropped:
                table.conns.discard(conn)
            else:
                conn.push(self.message_for(table, conn, seen))
        table.presence_sent = presence(table)  # every state carried who is connected

    async def connect(self, table: LiveTable, conn: Conn) -> None:
        """Admit a connection and send it the table; the others hear of it in a small
        ``presence`` event (``PRESENCE_DELAY``), never a state each. ``HubError`` when the
        table has no room for it (``MAX_SPECTATORS``, ``MAX_PLAYER_SOCKETS``)."""
        if conn.seat is None and spectators(table) >= MAX_SPECTATORS:
            raise HubError("too_many_spectators", f"this table has {MAX_SPECTATORS} "
                           "spectators already: try again later", 429)
        if conn.player_id and sum(c.player_id == conn.player_id
                                  for c in table.conns) >= MAX_PLAYER_SOCKETS:
            raise HubError("too_many_connections", f"you have {MAX_PLAYER_SOCKETS} "
                           "connections to this table already: close some", 429)
        if conn.player_id:  # one bucket for all the player's sockets, whichever table
            conn.bucket = self._bucket(conn.player_id)
        conn.bucket.users += 1
        conn.admitted = True
        table.conns.add(conn)
        if conn.seat is not None:
            table.gone_since.pop(conn.seat, None)
        conn.push(self.message_for(table, conn))
        self._presence_changed(table)

    async def disconnect(self, table: LiveTable, conn: Conn) -> None:
        if not conn.admitted:  # refused, or gone already
            return
        conn.admitted = False
        table.conns.discard(conn)  # (a broadcast may have discarded it when it was dropped)
        conn.bucket.users -= 1
        if conn.seat is not None and not table.connected(conn.seat):
            table.gone_since[conn.seat] = time.monotonic()  # the grace period starts
        self._presence_changed(table)

    def _bucket(self, player_id: str) -> Bucket:
        """The player's message bucket. Now and then, buckets nobody uses and that have
        refilled are forgotten: a new one is the same, so reconnecting wins nothing."""
        now = time.monotonic()
        if now - self._buckets_swept > 30:
            self._buckets_swept = now
            for key in [k for k, b in self.buckets.items() if not b.users and b.full(now)]:
                del self.buckets[key]
        bucket = self.buckets.get(player_id)
        if bucket is None:
            bucket = self.buckets[player_id] = Bucket(refilled=now)
        return bucket

    def _presence_changed(self, table: LiveTable) -> None:
        if table.presence_timer is None:
            loop = asyncio.get_running_loop()
            table.presence_timer = loop.call_later(PRESENCE_DELAY, self._send_presence, table)

    def _send_presence(self, table: LiveTable) -> None:
        """Tell the connections what changed in presence since they were last told: a seat
        connected or gone, to everyone (as one small event per seat); only the number of
        spectators, to the seated connections alone (spectators do not need a count of
        each other). Nothing secret: a seat number, a flag, a count."""
        table.presence_timer = None
        (was, watching), (now, count) = table.presence_sent, presence(table)
        table.presence_sent = (now, count)
        changed = [s for s in range(table.players)
                   if table.seats[s]["player_id"] and (s in was) != (s in now)]
        events = [{"type": "presence", "version": table.version, "seat": s,
                   "connected": s in now, "spectators": count} for s in changed]
        if events:
            for conn in list(table.conns):
                for event in events:
                    conn.push(event)
        elif count != watching:
            event = {"type": "presence", "version": table.version, "seat": None,
                     "connected": None, "spectators": count}
            for conn in list(table.conns):
                if conn.seat is not None:
                    conn.push(event)

    def record(self, table: LiveTable) -> dict[str, Any]:
        if table.status != "over":
            raise HubError("not_over", "the record of a game is public once the game is over",
                           403)
        # who played each seat (names, not player ids): replay() accepts and ignores it
        return {**table.state.record(), "played_by": table.history()}


async def in_thread(fn: Any, *args: Any) -> Any:
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


async def commit(task: asyncio.Future) -> None:
    """Await a store write that, once begun, must finish: if the waiting task is cancelled
    meanwhile, the write (and the caller's bookkeeping after it) still completes, and the
    cancellation comes at the caller's next await."""
    cancelled = False
    while True:
        try:
            await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            if task.done() and not task.cancelled():
                break
            cancelled = True
    if cancelled:  # re-arm the cancellation for the caller's next await
        current = asyncio.current_task()
        if current is not None:
            current.cancel()
    task.result()


def can(bot: Any, method: str) -> bool:
    """Whether a bot (in this process or a worker) has the optional hook ``method``."""
    if isinstance(bot, RemoteBot):
        return bot.can(method)
    return callable(getattr(bot, method, None))


def make_advisor(game: str) -> Any:
    """The game's advisor bot (``Game.advisor``), watching a player's game to give hints so
    they remember what was shown (Doublets' flipped cards); None for a game without one."""
    spec = games.get(game).advisor
    return None if spec is None else make_bot(spec, game)


def spectators(table: LiveTable) -> int:
    """Connections watching the table without a seat."""
    return sum(1 for c in table.conns if c.seat is None)


def presence(table: LiveTable) -> tuple[frozenset[int], int]:
    """(seats with an open connection, spectators)."""
    seats = frozenset(c.seat for c in table.conns if c.seat is not None)
    return seats, spectators(table)


def error(code: str, message: str, client_id: str | None = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "id": client_id}
