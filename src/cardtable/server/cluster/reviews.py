"""Game reviews between several processes: a job queue on the cluster's Redis (arq).

With ``serve --bus redis://...`` a review asked at one process is a job on one queue in the
Redis the processes already share; every process runs an arq worker on that queue, which hands
each job to its own review runner (``tables/reviews.py``, passed in as ``run``: this package
does not import the tables'). The job's id is the table's id, so a review asked at two
processes at once is one job. arq keeps a job until it is done: a process killed in the middle
of one leaves it to be run again by another once its time is out (the row's ``claim`` lets a
silent review be taken over), and a process stopped gracefully gives its jobs back.

The database row stays the truth about the review (its status, progress and result); the
queue only carries table ids.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

#: the queue's name in Redis (beside the bus's ``ct:`` keys)
QUEUE = "ct:reviews"
#: seconds a job may run at arq's level, beyond the runner's own wall-clock limit
SLACK = 30.0
#: seconds between two looks at the queue by an idle worker
POLL = 0.2


class ArqReviews:
    """A ``ReviewQueue`` on Redis: ``submit`` enqueues, this process's worker runs jobs."""

    def __init__(
        self, url: str, run: Callable[[str], Awaitable[None]], workers: int, timeout: float
    ) -> None:
        self.url, self.run, self.workers, self.timeout = url, run, workers, timeout
        self.redis: Any = None
        self.worker: Any = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        from arq import create_pool
        from arq.connections import RedisSettings
        from arq.worker import Worker, func

        settings = RedisSettings.from_dsn(self.url)
        self.redis = await create_pool(settings, default_queue_name=QUEUE)
        self.worker = Worker(
            functions=[func(self._job, name="review", max_tries=3)],
            queue_name=QUEUE,
            redis_settings=settings,
            handle_signals=False,  # the server's signals are uvicorn's
            max_jobs=self.workers,
            job_timeout=self.timeout + SLACK,
            keep_result=0,
            poll_delay=POLL,
        )
        self.task = asyncio.create_task(self.worker.async_run())

    async def _job(self, ctx: dict[Any, Any], *args: Any, **_kwargs: Any) -> None:
        """arq's job: the table id is its one argument."""
        await self.run(str(args[0]))

    async def submit(self, table_id: str) -> None:
        # (None when the job is queued already: the same review asked twice)
        await self.redis.enqueue_job("review", table_id, _job_id=table_id, _queue_name=QUEUE)

    async def close(self) -> None:
        if self.worker is not None:
            with contextlib.suppress(Exception):
                await self.worker.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        if self.redis is not None:
            await self.redis.close(close_connection_pool=True)
