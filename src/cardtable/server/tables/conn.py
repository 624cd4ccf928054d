"""One websocket connection watching a table, and the budget of messages it may send.

Below the broadcaster and the hub, which hand states to connections, and the web edge, which
reads a socket into one (``server/web/socket.py``): a connection knows its seat, its outbox and
its player's bucket, never a table.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.server.api.limits import SharedCounts
from cardtable.server.api.metrics import LastSent

#: limits on what a client controls (docs/server.md lists them)
OUTBOX = 64  # messages waiting for a slow client before it is dropped
#: messages of any type (actions, pings, syncs, bad ones) a second one player may send over
#: all its sockets together (a spectator without a name: its connection), on average ...
MESSAGE_RATE = 20.0
MESSAGE_BURST = 60  # ... and in a burst


@dataclass(eq=False)
class Bucket:
    """A token bucket: ``MESSAGE_RATE`` messages a second on average, bursts of
    ``MESSAGE_BURST``. One per player, shared by all the player's sockets
    (``Broadcaster.connect``)."""

    tokens: float = MESSAGE_BURST
    refilled: float = 0.0
    users: int = 0  # live connections sharing it: a bucket in use is never forgotten
    #: with several processes: the counts they share, and this player's key in them
    shared: SharedCounts | None = None
    key: str = ""

    def take(self, now: float) -> float:
        """0 if a message may go now (and count it), else the seconds to wait."""
        if self.shared is not None:
            wait = self.shared.wait("messages", self.key)
            if wait:
                return wait
        self.tokens = min(MESSAGE_BURST, self.tokens + (now - self.refilled) * MESSAGE_RATE)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            if self.shared is not None:
                self.shared.note("messages", self.key, MESSAGE_BURST / MESSAGE_RATE, MESSAGE_BURST)
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
    outbox: asyncio.Queue[Mapping[str, Any]] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    dropped: bool = False
    #: its table moved to another process: closed with 1012, so that the client reconnects
    moved: bool = False
    bucket: Bucket = field(default_factory=Bucket)
    admitted: bool = False  # Broadcaster.connect took it (and disconnect has not let it go)
    #: the table version of the last state it was sent: the next one carries only what the
    #: game log gained or changed since (``gamelog.log_since``); None: the whole log
    log_version: int | None = None
    #: its state messages carry ``labels`` and ``labels_msg`` (the websocket's ``labels=0``
    #: says no: a board that names its moves itself spares the server building them)
    labels: bool = True
    #: its states carry the table info only when it changed since its last one (the
    #: websocket's ``table=changed``), ``version`` aside; ``table_sent`` is that last one
    table_changes_only: bool = False
    table_sent: dict[str, Any] | None = None
    #: messages whose writing ends an action's latency (``metrics.LastSent``), in order
    marks: deque[tuple[Mapping[str, Any], LastSent]] = field(default_factory=deque)

    def written(self, message: Mapping[str, Any]) -> None:
        """``message`` was written to the socket (the writer says so after each)."""
        if self.marks and self.marks[0][0] is message:
            self.marks.popleft()[1].done()

    def push(self, message: Mapping[str, Any]) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True  # the writer sees this and closes the socket

    def move(self) -> None:
        """Close the connection because its table is held elsewhere now (``Hub.drop``)."""
        self.moved = True
        # wakes the writer, which closes the socket before sending anything more (with a full
        # outbox it is not waiting: it sees the mark)
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait({"type": "moved"})
        self.dropped = True

    def allow(self, now: float) -> float:
        """0 if a message may go now (and count it against the player), else the seconds
        to wait."""
        return self.bucket.take(now)
