"""Game reviews in the database (migration 0013): one row per finished table, from the moment
it is asked until it is done, so that every process answers "how far" and "what was found".

The row is the truth about a review, whatever queue carries it (``tables/reviews.py``): it is
inserted when a person asks (the limits are counted here, in one transaction, so they hold
across processes), claimed by the worker that runs it (``claim``: only one worker runs a
review), its progress written while it runs (throttled by the worker), and its result or error
stored at the end. The worker process writes through its own :class:`ReviewStore` on its own
engine: the web process never waits for a review.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.storage.store import ACTIONS, TABLES, Base, now

#: a review's statuses: waiting for a worker, being made, made, given up
STATUSES = ("queued", "running", "done", "failed")
#: reviews counted against a player's daily number: those asked in the last this long
DAY = dt.timedelta(days=1)
#: a running review whose progress has not moved for this long lost its worker (a process
#: killed mid-review): another worker may claim it again
STALE = dt.timedelta(seconds=120)
#: characters of an error kept
ERROR_CHARS = 500


class ReviewRow(Base):
    """One table's review: its status, its progress and, once done, the review's JSON."""

    __tablename__ = "reviews"
    __table_args__ = (
        Index("ix_reviews_asked_by", "asked_by", "asked_at"),
        Index("ix_reviews_status", "status"),
    )
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    #: queued, running, done, failed (``STATUSES``)
    status: Mapped[str] = mapped_column(String(8))
    #: the decisions judged so far, of ``total`` (the review's own count; 0 of 0 until it runs)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    #: quick, normal or deep (``review.DEPTHS``)
    depth: Mapped[str] = mapped_column(String(8))
    #: the table's version the review is of (a finished solitaire may be undone and replayed)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: the review (``review_record``'s JSON) once done
    review: Mapped[dict | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(String(ERROR_CHARS))
    asked_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    asked_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    #: the last progress written by its worker (a stale one is claimed again)
    beat_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    #: processor seconds the review took (its worker's)
    cpu: Mapped[float | None] = mapped_column(Float)


REVIEWS = Base.metadata.tables["reviews"]


class Refused(Exception):
    """A review not queued: ``code`` is ``daily`` (the player's daily number is used up) or
    ``busy`` (the queue is full); ``retry_after`` in seconds."""

    def __init__(self, code: str, retry_after: float) -> None:
        super().__init__(code)
        self.code, self.retry_after = code, retry_after


class TableFacts(NamedTuple):
    """What a review needs of a table's row."""

    game: str
    seed: int
    players: int
    options: dict[str, Any]
    status: str
    ended: str | None
    version: int


class ReviewStore:
    """The reviews' rows, on any engine (the web process's store's, or a worker's own)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, table_id: str) -> ReviewRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(REVIEWS).where(REVIEWS.c.table_id == table_id)).first()
        return ReviewRow(**row._mapping) if row is not None else None

    def ask(
        self,
        table_id: str,
        player_id: str,
        depth: str,
        version: int,
        per_day: int,
        queue: int,
    ) -> tuple[ReviewRow, bool]:
        """The table's review, and whether it was queued just now. A review already asked
        is answered as it is (one per table), unless it is of an older version of the game
        and over: then it is asked again. Refused (``Refused``) past the player's daily
        number or the queue's length, both counted here, in the same transaction."""
        try:
            with self.engine.begin() as conn:
                found = conn.execute(select(REVIEWS).where(REVIEWS.c.table_id == table_id)).first()
                again = found is not None and found.status in ("done", "failed")
                if found is not None and not (again and found.version != version):
                    return ReviewRow(**found._mapping), False
                at = now()
                self._check(conn, player_id, at, per_day, queue)
                values = {
                    "status": "queued",
                    "done": 0,
                    "total": 0,
                    "depth": depth,
                    "version": version,
                    "review": None,
                    "error": None,
                    "asked_by": player_id,
                    "asked_at": at,
                    "started_at": None,
                    "beat_at": None,
                    "finished_at": None,
                    "cpu": None,
                }
                if found is None:
                    conn.execute(insert(REVIEWS).values(table_id=table_id, **values))
                else:
                    conn.execute(
                        update(REVIEWS).where(REVIEWS.c.table_id == table_id).values(**values)
                    )
        except IntegrityError:  # asked at the same moment elsewhere: that one stands
            row = self.get(table_id)
            assert row is not None
            return row, False
        return ReviewRow(table_id=table_id, **values), True

    @staticmethod
    def _check(conn: Any, player_id: str, at: dt.datetime, per_day: int, queue: int) -> None:
        r = REVIEWS.c
        asked = conn.execute(
            select(func.count(), func.min(r.asked_at)).where(
                r.asked_by == player_id, r.asked_at > at - DAY
            )
        ).first()
        if asked[0] >= per_day:
            raise Refused("daily", ((asked[1] + DAY) - at).total_seconds())
        waiting = conn.execute(
            select(func.count()).where(r.status.in_(("queued", "running")))
        ).scalar_one()
        if waiting >= queue:
            raise Refused("busy", 5.0)

    def claim(self, table_id: str) -> bool:
        """Whether this worker may run the review: it was queued, or its worker went silent
        (``STALE``). One worker wins; the others leave it."""
        r = REVIEWS.c
        at = now()
        q = (
            update(REVIEWS)
            .where(r.table_id == table_id)
            .where((r.status == "queued") | ((r.status == "running") & (r.beat_at < at - STALE)))
            .values(status="running", started_at=at, beat_at=at, done=0)
        )
        with self.engine.begin() as conn:
            return bool(conn.execute(q).rowcount)

    def progress(self, table_id: str, done: int, total: int) -> None:
        q = update(REVIEWS).where(REVIEWS.c.table_id == table_id, REVIEWS.c.status == "running")
        with self.engine.begin() as conn:
            conn.execute(q.values(done=done, total=total, beat_at=now()))

    def finish(
        self, table_id: str, review: dict[str, Any] | None, error: str | None, cpu: float | None
    ) -> None:
        """Done with ``review``, or failed with ``error``."""
        values: dict[str, Any] = {"finished_at": now(), "cpu": cpu}
        if review is not None:
            values.update(status="done", review=review, error=None, done=REVIEWS.c.total)
        else:
            values.update(status="failed", error=(error or "failed")[:ERROR_CHARS])
        with self.engine.begin() as conn:
            conn.execute(update(REVIEWS).where(REVIEWS.c.table_id == table_id).values(**values))

    def unfinished(self) -> list[str]:
        """Tables whose review waits or runs, oldest asked first (a restarted process
        queues them again)."""
        r = REVIEWS.c
        q = select(r.table_id).where(r.status.in_(("queued", "running"))).order_by(r.asked_at)
        with self.engine.connect() as conn:
            return [row[0] for row in conn.execute(q)]

    def requeue_running(self) -> None:
        """One process, starting: its reviews that were running lost their worker with it."""
        q = update(REVIEWS).where(REVIEWS.c.status == "running").values(status="queued")
        with self.engine.begin() as conn:
            conn.execute(q)

    def table(self, table_id: str) -> TableFacts | None:
        t = TABLES.c
        q = select(t.game, t.seed, t.players, t.options, t.status, t.ended, t.version).where(
            t.id == table_id
        )
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
        return TableFacts(*row) if row is not None else None

    def actions(self, table_id: str) -> list[list[Any]]:
        a = ACTIONS.c
        q = select(a.seat, a.action).where(a.table_id == table_id).order_by(a.n)
        with self.engine.connect() as conn:
            return [[seat, action] for seat, action in conn.execute(q)]
