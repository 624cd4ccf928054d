"""The bus between server processes (Redis): who writes which table, and messages between them.

One process with its embedded database needs none of this. With ``cardtable serve --bus
redis://...`` any number of processes share one database and one Redis (docs/server.md,
"Many processes"):

- **Alive.** Each process has an id and a heartbeat key ``ct:proc:<id>`` that lives
  ``HEARTBEAT_TTL`` seconds and is renewed every ``HEARTBEAT_EVERY``. While it exists the
  process is alive; ``ct:procs`` lists every process that has not been cleaned away.
- **One writer per table.** ``ct:lease:<table>`` names the process that holds the table (loads
  it, stores its actions, runs its bots and clocks). A lease is valid while its holder is
  alive, so one heartbeat renews every lease of a process at once. Claiming is a script run
  atomically by Redis: a lease that is free, ours, or held by a process whose heartbeat is
  gone becomes ours; otherwise the claim answers the holder. ``ct:tables:<id>`` is the set of
  tables a process holds, for the takeover.
- **Takeover.** Every ``TAKEOVER_EVERY`` seconds each process looks for dead processes (the
  heartbeat gone, or no listener on the process's channel: ``alive_many``) and claims their
  tables one by one (the script moves each from the dead
  set to the claimer's: two survivors never both get one), then loads those that need a
  writer (their bots and clocks go on). A killed process's connection to Redis closes with
  it, so its tables are taken over within about ``2 * TAKEOVER_EVERY + SILENT_FOR`` seconds
  and the time to load them (``HEARTBEAT_TTL + TAKEOVER_EVERY`` when only its heartbeat tells,
  e.g. a machine cut off from the network).
- **A process that was paused** past its heartbeat (the machine stalled) has lost every lease:
  the renewal finds its key gone, and the process drops every table it holds and starts again
  under a new id before it writes again. Until the renewal has been seen, ``fresh`` says no
  (the last renewal sent is older than ``HEARTBEAT_TTL``), and the hub writes nothing. The
  database is the last guard: each action has a
  unique position in its table, so a second writer's action is refused, never stored twice.
- **Messages.** Each process listens on the channel ``ct:to:<id>``; ``send`` publishes a JSON
  object there. The table tunnel (``tunnel.py``) is what travels on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson

from cardtable.server.api.metrics import DEAD_PROCESSES, FAILOVERS

log = logging.getLogger("cardtable.server")

HEARTBEAT_TTL = 3.0  # seconds a process stays alive without renewing
HEARTBEAT_EVERY = 0.75  # seconds between renewals
TAKEOVER_EVERY = 0.5  # seconds between two looks for dead processes
TAKEOVER_BATCH = 100  # tables claimed per round trip of a takeover
SILENT_FOR = 0.4  # seconds a beating process may have no listener before it counts as dead
POOL = 32  # connections to Redis per process
POOL_WAIT = 10.0  # seconds a command may wait for one of them
OUTBOX = 100_000  # messages waiting to be published before ``send`` waits
BATCH = 500  # messages published in one round trip

PREFIX = "ct:"

# KEYS: lease. ARGV: me, table, proc prefix, tables prefix. The holder, or false when our own
# heartbeat is gone (a paused process must not claim anything).
_CLAIM = """
if redis.call('EXISTS', ARGV[3] .. ARGV[1]) == 0 then return false end
local o = redis.call('GET', KEYS[1])
if o and o ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. o) == 1 then return o end
redis.call('SET', KEYS[1], ARGV[1])
if o and o ~= ARGV[1] then redis.call('SREM', ARGV[4] .. o, ARGV[2]) end
redis.call('SADD', ARGV[4] .. ARGV[1], ARGV[2])
return ARGV[1]
"""

# KEYS: lease. ARGV: me, table, dead, proc prefix, tables prefix. Take one table of a dead
# process: ours now, or false when it had moved on already (or was released).
_TAKE = """
redis.call('SREM', ARGV[5] .. ARGV[3], ARGV[2])
if redis.call('EXISTS', ARGV[4] .. ARGV[1]) == 0 then return false end
local o = redis.call('GET', KEYS[1])
if o ~= ARGV[3] then return false end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', ARGV[5] .. ARGV[1], ARGV[2])
return ARGV[1]
"""

# KEYS: lease. ARGV: me, table, tables prefix. Let go of a table we hold (only if we do).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', ARGV[3] .. ARGV[1], ARGV[2])
return 1
"""

# KEYS: lease. ARGV: proc prefix. The live holder of a table, or false.
_OWNER = """
local o = redis.call('GET', KEYS[1])
if o and redis.call('EXISTS', ARGV[1] .. o) == 1 then return o end
return false
"""

#: a message handler: (the message) -> None
Handler = Callable[[dict[str, Any]], None]


def new_id() -> str:
    return secrets.token_hex(6)


T = TypeVar("T")


async def answer(command: Awaitable[T] | T) -> T:
    """A Redis command's answer. redis-py 5 (the version arq allows) types the asyncio
    client's set commands as sync-or-async; they are always awaitables here."""
    return await command if inspect.isawaitable(command) else command


class Bus:
    """One process's part of the bus. ``start()`` before use, ``close()`` at the end.

    ``on_message`` gets every message sent to this process (on the event loop);
    ``on_lost`` is called when this process lost its leases (its heartbeat lapsed);
    ``on_take`` is awaited for each table taken over from a dead process.
    """

    def __init__(
        self,
        url: str,
        heartbeat_ttl: float = HEARTBEAT_TTL,
        heartbeat_every: float = HEARTBEAT_EVERY,
        takeover_every: float = TAKEOVER_EVERY,
    ) -> None:
        import redis.asyncio as aioredis

        self.url = url
        # a bounded pool that waits for a free connection rather than failing: at a busy
        # moment many tasks ask at once (``send`` itself goes through one batching task)
        pool = aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=POOL, timeout=POOL_WAIT
        )
        self.redis = aioredis.Redis(connection_pool=pool)  # str, not bytes
        self.id = new_id()
        self.ttl = heartbeat_ttl
        self.heartbeat_every = heartbeat_every
        self.takeover_every = takeover_every
        self.on_message: Handler = lambda message: None
        self.on_lost: Callable[[], None] = lambda: None
        self.on_take: Callable[[str], Awaitable[None]] = self._ignore
        self._claim = self.redis.register_script(_CLAIM)
        self._take = self.redis.register_script(_TAKE)
        self._release = self.redis.register_script(_RELEASE)
        self._owner = self.redis.register_script(_OWNER)
        self._tasks: list[asyncio.Task[None]] = []
        #: (channel, message) to publish, in order, by ``_publisher``
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(OUTBOX)
        self._pubsub: Any = None
        self.closed = False
        #: process -> when it was first seen with a heartbeat but no listener
        self._silent: dict[str, float] = {}
        #: time.monotonic() when the last heartbeat that Redis took was sent (``fresh``)
        self.renewed_at = -1e9

    @staticmethod
    async def _ignore(table_id: str) -> None:
        return None

    # -- keys -------------------------------------------------------------------------------
    @staticmethod
    def proc_key(pid: str) -> str:
        return f"{PREFIX}proc:{pid}"

    @staticmethod
    def lease_key(table_id: str) -> str:
        return f"{PREFIX}lease:{table_id}"

    @staticmethod
    def channel(pid: str) -> str:
        return f"{PREFIX}to:{pid}"

    # -- life -------------------------------------------------------------------------------
    async def start(self) -> None:
        # listening first: a heartbeat without a listener means a dead process to the others
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.id))
        await self._register()
        self._tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._publisher()),
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._takeover_loop()),
        ]
        log.info("on the bus %s as process %s", self.url, self.id)

    def fresh(self) -> bool:
        """Whether this process's heartbeat (and so every lease it holds) is surely alive:
        its last renewal was sent less than ``ttl`` seconds ago. A process paused past that
        may have lost its leases before its next renewal tells it."""
        return time.monotonic() - self.renewed_at < self.ttl

    async def _register(self) -> None:
        sent = time.monotonic()
        await self.redis.set(self.proc_key(self.id), "1", px=int(self.ttl * 1000))
        self.renewed_at = sent
        await answer(self.redis.sadd(f"{PREFIX}procs", self.id))

    async def close(self) -> None:
        """Leave the bus: the heartbeat goes at once, so the others take this process's
        tables over at their next look (a rolling restart loses no time)."""
        self.closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(self.proc_key(self.id))
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_every)
            try:
                sent = time.monotonic()
                renewed = await self.redis.set(
                    self.proc_key(self.id), "1", px=int(self.ttl * 1000), xx=True
                )
            except Exception:  # Redis away for a moment: the next renewal may still be in time
                log.warning("the bus did not answer the heartbeat", exc_info=True)
                continue
            if renewed:
                self.renewed_at = sent
            else:
                await self._lost()

    async def _lost(self) -> None:
        """Our heartbeat lapsed: every lease may be another's now. Drop everything and come
        back under a new id (the old one's tables are taken over like a dead process's)."""
        log.warning(
            "process %s lost its leases (its heartbeat lapsed): dropping its tables", self.id
        )
        self.on_lost()
        old = self.id
        self.id = new_id()
        if self._pubsub is not None:
            await self._pubsub.subscribe(self.channel(self.id))
            await self._pubsub.unsubscribe(self.channel(old))
        await self._register()

    async def _listen(self) -> None:
        assert self._pubsub is not None
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the bus subscription failed; listening again", exc_info=True)
                await asyncio.sleep(0.2)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                self.on_message(orjson.loads(message["data"]))
            except Exception:  # one bad message must not stop the listening
                log.exception("handling a bus message")

    # -- leases -----------------------------------------------------------------------------
    async def claim(self, table_id: str) -> str | None:
        """The process that holds the table after this claim: this one's id when it was free
        (or its holder dead), the live holder's otherwise; None when this process may not
        claim anything now (its heartbeat lapsed)."""
        owner = await self._claim(
            keys=[self.lease_key(table_id)],
            args=[self.id, table_id, f"{PREFIX}proc:", f"{PREFIX}tables:"],
        )
        return str(owner) if owner else None

    async def owner(self, table_id: str) -> str | None:
        """The live process holding the table, or None."""
        owner = await self._owner(keys=[self.lease_key(table_id)], args=[f"{PREFIX}proc:"])
        return str(owner) if owner else None

    async def release(self, table_id: str) -> None:
        """Let go of a table this process no longer holds in memory."""
        await self._release(
            keys=[self.lease_key(table_id)], args=[self.id, table_id, f"{PREFIX}tables:"]
        )

    async def alive(self, pid: str) -> bool:
        return bool(await self.redis.exists(self.proc_key(pid)))

    async def alive_many(self, pids: list[str]) -> dict[str, bool]:
        """Which of these processes are alive. A process is dead when its heartbeat is gone,
        or sooner: a killed process's connection to Redis closes with it, so its channel has
        no listener any more; seen so twice, ``SILENT_FOR`` seconds apart, it is declared
        dead here (its heartbeat deleted), and its tables are taken over at once instead of
        when the heartbeat would have lapsed. (A live process that lost its connection for
        that long finds its heartbeat gone and starts again under a new id: safe, if rare.)"""
        if not pids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for pid in pids:
            pipe.exists(self.proc_key(pid))
            pipe.pubsub_numsub(self.channel(pid))
        answers = await pipe.execute()
        now = asyncio.get_running_loop().time()
        out: dict[str, bool] = {}
        for k, pid in enumerate(pids):
            beating, listeners = bool(answers[2 * k]), answers[2 * k + 1][0][1]
            if not beating or listeners:
                self._silent.pop(pid, None)
                out[pid] = beating
                continue
            since = self._silent.setdefault(pid, now)
            if now - since >= SILENT_FOR:
                log.info("process %s stopped listening on the bus: it is dead", pid)
                await self.redis.delete(self.proc_key(pid))
                self._silent.pop(pid, None)
                out[pid] = False
            else:
                out[pid] = True
        return out

    # -- takeover ---------------------------------------------------------------------------
    async def _takeover_loop(self) -> None:
        while True:
            await asyncio.sleep(self.takeover_every)
            try:
                await self.take_over_dead()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("taking over the tables of dead processes")

    async def take_over_dead(self) -> int:
        """Claim the tables of every process whose heartbeat is gone; how many we took."""
        procs = [str(p) for p in await answer(self.redis.smembers(f"{PREFIX}procs"))]
        alive = await self.alive_many([p for p in procs if p != self.id])
        taken = 0
        for pid, up in alive.items():
            if up:
                continue
            while True:
                some = self.redis.srandmember(f"{PREFIX}tables:{pid}", TAKEOVER_BATCH)
                found: Any = await answer(some)
                ids = [str(t) for t in found or []]
                if not ids:
                    break
                for table_id in ids:
                    got = await self._take(
                        keys=[self.lease_key(table_id)],
                        args=[self.id, table_id, pid, f"{PREFIX}proc:", f"{PREFIX}tables:"],
                    )
                    if got:
                        taken += 1
                        FAILOVERS.inc()
                        try:
                            await self.on_take(table_id)
                        except Exception:  # one broken table must not stop the takeover
                            log.exception("taking over table %s", table_id)
            await answer(self.redis.srem(f"{PREFIX}procs", pid))
            DEAD_PROCESSES.inc()
            log.info("process %s is gone; its tables are taken over", pid)
        return taken

    # -- presence ---------------------------------------------------------------------------
    async def share_presence(self, seats: dict[str, list[int]]) -> None:
        """Who is connected at the tables this process holds (table -> seats with an open
        connection), for the lobbies of the other processes; each entry lives
        ``HEARTBEAT_TTL`` seconds unless shared again."""
        if not seats:
            return
        pipe = self.redis.pipeline(transaction=False)
        for table_id, present in seats.items():
            pipe.set(
                f"{PREFIX}presence:{table_id}", ",".join(map(str, present)), px=int(self.ttl * 1000)
            )
        await pipe.execute()

    async def presence(self, ids: list[str]) -> dict[str, set[int]]:
        """The seats connected at these tables, as their holders last shared them."""
        if not ids:
            return {}
        values: list[Any] = await self.redis.mget([f"{PREFIX}presence:{i}" for i in ids])
        return {
            i: {int(x) for x in str(v).split(",") if x}
            for i, v in zip(ids, values, strict=True)
            if v is not None
        }

    # -- messages ---------------------------------------------------------------------------
    async def send(self, pid: str, message: dict[str, Any]) -> None:
        """Publish a message to one process (lost if it is gone: the tunnel notices). The
        messages go in the order sent, many to a round trip (``_publisher``)."""
        await self._outbox.put((self.channel(pid), orjson.dumps(message)))

    async def _publisher(self) -> None:
        """Publish what ``send`` queued: whatever has gathered since the last round trip goes
        in one pipeline (one task: the order of the messages is kept)."""
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            pipe = self.redis.pipeline(transaction=False)
            for channel, data in batch:
                pipe.publish(channel, data)
            try:
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away: these are lost; the tunnel's watch sees to it
                log.warning("publishing %d bus messages failed", len(batch), exc_info=True)
