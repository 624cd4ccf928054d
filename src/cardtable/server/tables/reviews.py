"""Game reviews on the server: asked through the API, made off the web process, kept in the
database (``storage/reviews.py``), bounded.

A review of a typical game takes 2 to 40 s of one core (``cardtable.review``), far too long
for the event loop and too long for the bots' workers: it runs in a worker process of its
own pool (``BotPool``, as hints do in ``advice.py``), so a review never delays a bot or a
hint. The worker reads the finished game from the database, reviews it, writes its progress
while it runs (at most every ``PROGRESS_EVERY`` seconds) and the review at the end: any
process answers "how far" from the row.

What carries a review to a worker is a :class:`ReviewQueue`: in one process an asyncio queue
(:class:`LocalReviews`); with several processes a maintained job queue on the cluster's Redis
(``cluster/reviews.py``, arq), so that a review asked at one process runs at whichever
process's worker is free. Both hand the table id to :meth:`ReviewRunner.run`, which claims the
row first: a review asked twice, or delivered twice, runs once.

Bounds (docs/server.md, "Game review"): ``REVIEWS_PER_DAY`` asked per player in 24 hours,
``REVIEW_QUEUE`` reviews queued or running over all processes (counted in the database; 503
``busy`` beyond), ``REVIEW_BUDGET`` processor seconds per review (the review stops itself)
and ``REVIEW_TIMEOUT`` seconds of wall clock (the worker is killed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from cardtable.core.words import translatable
from cardtable.server.api.limits import TooMany
from cardtable.server.api.messages import HubError
from cardtable.server.storage.reviews import Refused, ReviewRow, ReviewStore, TableFacts
from cardtable.server.storage.tournaments import challenge_secret, secret_refusal
from cardtable.server.tables.botpool import BotFailed, BotPool, RemoteBot, WorkerGone

_, _n = translatable("cardtable")
log = logging.getLogger("cardtable.server")

#: reviews one player may ask in 24 hours
REVIEWS_PER_DAY = 20
#: reviews queued or running at once, over every process
REVIEW_QUEUE = 8
#: worker processes for reviews per server process (apart from the bots' and the advice's)
REVIEW_WORKERS = 1
#: processor seconds one review may use (``review_record(budget=...)``): a typical game takes
#: 2 to 40
REVIEW_BUDGET = 120.0
#: seconds of wall clock before a review's worker is killed (a stuck one, or a loaded machine)
REVIEW_TIMEOUT = 300.0
#: seconds between two writes of a running review's progress
PROGRESS_EVERY = 1.0
#: the depth a review is made at unless asked otherwise
DEFAULT_DEPTH = "normal"


class ReviewTask:
    """One review as a bot-shaped object (``ask``), so a ``BotPool`` worker runs it."""

    def __init__(self, url: str, table_id: str, depth: str, budget: float) -> None:
        self.url, self.table_id, self.depth, self.budget = url, table_id, depth, budget

    def ask(self, _view: Any, _legal: Any) -> str:
        return run_review(self.url, self.table_id, self.depth, self.budget)


def run_review(url: str, table_id: str, depth: str, budget: float) -> str:
    """In the worker: review the table's game and store it (or why not); "done" or "failed"."""
    from cardtable import games
    from cardtable.core.errors import CardtableError
    from cardtable.review import BudgetSpent, NotFinished, review_record
    from cardtable.server.storage.store import make_engine

    engine = make_engine(url)
    store = ReviewStore(engine)
    started = time.process_time()
    try:
        facts = store.table(table_id)
        if facts is None:
            raise NotFinished("there is no such table")
        record = {
            "game": facts.game,
            "version": games.get(facts.game).version,
            "seed": facts.seed,
            "players": facts.players,
            "options": dict(facts.options or {}),
            "actions": store.actions(table_id),
        }
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if time.monotonic() - last[0] >= PROGRESS_EVERY:
                last[0] = time.monotonic()
                store.progress(table_id, done, total)

        review = review_record(
            record,
            depth=depth,
            ended=facts.ended is not None,
            budget=budget,
            progress=progress,
        )
        store.finish(table_id, review, None, time.process_time() - started)
        return "done"
    except (NotFinished, BudgetSpent, CardtableError, ValueError) as e:
        said = getattr(e, "reason", None) or str(e)
        store.finish(table_id, None, said, time.process_time() - started)
        return "failed"
    finally:
        engine.dispose()


class ReviewRunner:
    """Runs claimed reviews in worker processes of its own (``workers`` at once)."""

    def __init__(
        self,
        url: str,
        store: ReviewStore,
        workers: int = REVIEW_WORKERS,
        budget: float = REVIEW_BUDGET,
        timeout: float = REVIEW_TIMEOUT,
    ) -> None:
        self.url, self.store = url, store
        self.pool = BotPool(workers)  # started at the first review
        self.workers, self.budget, self.timeout = workers, budget, timeout

    async def run(self, table_id: str) -> None:
        """Run the table's review unless another worker has it (or it is done)."""
        if not self.store.claim(table_id):
            return
        row = self.store.get(table_id)
        depth = row.depth if row is not None else DEFAULT_DEPTH
        task = RemoteBot(ReviewTask(self.url, table_id, depth, self.budget), "review")
        try:
            outcome = await self.pool.call(task, "ask", {}, [], self.timeout, share=table_id)
            log.info("review of table %s: %s", table_id, outcome)
        except TimeoutError:
            said = f"the review took longer than {self.timeout:g} s"
            self.store.finish(table_id, None, said, None)
        except (BotFailed, WorkerGone) as e:
            log.warning("review of table %s failed: %s", table_id, e)
            self.store.finish(table_id, None, f"the review's worker failed: {e}", None)

    async def close(self) -> None:
        await self.pool.close()


class ReviewQueue(Protocol):
    """What carries a review asked at this process to a worker (``submit``), from ``start``
    to ``close``. The database row is asked (``ReviewStore.ask``) before ``submit``."""

    async def start(self) -> None: ...

    async def submit(self, table_id: str) -> None: ...

    async def close(self) -> None: ...


class LocalReviews:
    """One process: an asyncio queue, and as many consumers as the runner has workers. At
    start, the reviews left queued or running by the last run of the server are queued
    again (their rows say so)."""

    def __init__(self, runner: ReviewRunner) -> None:
        self.runner = runner
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self.runner.store.requeue_running()
        for table_id in self.runner.store.unfinished():
            self.queue.put_nowait(table_id)
        self.tasks = [asyncio.create_task(self._consume()) for _ in range(self.runner.workers)]

    async def submit(self, table_id: str) -> None:
        self.queue.put_nowait(table_id)  # (its length is bounded by the rows: REVIEW_QUEUE)

    async def _consume(self) -> None:
        while True:
            table_id = await self.queue.get()
            try:
                await self.runner.run(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the review of table %s failed", table_id)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class Reviews:
    """The server's reviews: asking (with the limits), reading, and the queue behind them."""

    def __init__(
        self,
        store: ReviewStore,
        queue: ReviewQueue,
        runner: ReviewRunner,
        per_day: int = REVIEWS_PER_DAY,
        length: int = REVIEW_QUEUE,
    ) -> None:
        self.store, self.queue, self.runner = store, queue, runner
        self.per_day, self.length = per_day, length

    async def close(self) -> None:
        """The queue first (it stops handing out reviews), then the workers."""
        await self.queue.close()
        await self.runner.close()

    def table(self, table_id: str) -> TableFacts:
        """The finished table's facts: ``HubError`` 404 if there is none, 409 unfinished."""
        facts = self.store.table(table_id)
        if facts is None:
            raise HubError("not_found", _("there is no table {table}", table=repr(table_id)), 404)
        if facts.status != "over":
            raise HubError("not_over", _("only a finished game is reviewed: finish it first"), 409)
        if challenge_secret(self.store.engine, table_id):
            raise secret_refusal()
        return facts

    async def ask(self, table_id: str, player_id: str, depth: str) -> dict[str, Any]:
        """The table's review, queued now unless it was asked before (one per table)."""
        facts = self.table(table_id)
        try:
            row, new = self.store.ask(
                table_id, player_id, depth, facts.version, self.per_day, self.length
            )
        except Refused as e:
            if e.code == "daily":
                said = _n(
                    "you have asked for {n} review in the last 24 hours, the most a day",
                    "you have asked for {n} reviews in the last 24 hours, the most a day",
                    self.per_day,
                )
                raise TooMany("review_limit", said, e.retry_after, 429) from None
            said = _("the server is busy with other reviews: try again in a few minutes")
            raise TooMany("busy", said, e.retry_after, 503) from None
        if new:
            await self.queue.submit(table_id)
        return answer(row)

    def get(self, table_id: str) -> dict[str, Any]:
        self.table(table_id)
        row = self.store.get(table_id)
        return answer(row) if row is not None else {"status": "none", "done": 0, "total": 0}


def answer(row: ReviewRow) -> dict[str, Any]:
    """A ``ReviewAnswer`` from the row: the review only once done, the error once failed."""
    return {
        "status": row.status,
        "done": row.done or 0,
        "total": row.total or 0,
        "depth": row.depth,
        "asked_at": _time(row.asked_at),
        "finished_at": _time(row.finished_at),
        "cpu": round(row.cpu, 2) if row.cpu is not None else None,
        "review": row.review if row.status == "done" else None,
        "error": row.error if row.status == "failed" else None,
    }


def _time(at: Any) -> str | None:
    return at.isoformat(timespec="seconds") + "Z" if at is not None else None
