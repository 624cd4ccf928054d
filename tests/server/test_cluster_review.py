"""Game review with several server processes (``serve --bus``): the reviews' job queue on the
cluster's Redis (arq). A review asked at one process is run by whichever process's worker is
free, and read at every process from the shared database. Real parts, as test_cluster.py."""

from __future__ import annotations

import httpx
import pytest

from server.conftest import Client
from server.test_cluster import NO_REDIS, make_cluster, redis_url  # noqa: F401 - fixtures
from server.test_review import ask, bots_table, follow, runs_logged

pytestmark = [
    pytest.mark.own_process,
    pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)"),
]


def test_reviews_asked_at_one_process_are_run_by_the_free_workers_and_read_at_both(
    make_cluster,  # noqa: F811 - the fixture
):
    first, second = make_cluster(2)
    ann = Client(first, "Ann")
    tables = [bots_table(ann, "doublets", ["greedy"]) for _ in range(2)]
    for table_id in tables:  # both asked at the first process
        answer = ask(ann, table_id, "deep")
        assert answer.status_code == 202 and answer.json()["status"] == "queued", answer.text
    again = ask(ann, tables[0])  # asked again, at the other process: the same review
    assert again.status_code == 202 and again.json()["depth"] == "deep"
    with httpx.Client(base_url=second.base) as elsewhere:
        done = [follow(elsewhere, t)[-1] for t in tables]
    assert [d["status"] for d in done] == ["done", "done"], done
    with httpx.Client(base_url=first.base) as here:
        assert [here.get(f"/api/tables/{t}/review").json() for t in tables] == done
    # each review ran once, and the second process's worker took one (the first's was busy)
    runs = [[runs_logged(s, t) for t in tables] for s in (first, second)]
    assert [sum(r) for r in zip(*runs, strict=True)] == [1, 1], runs
    assert [sum(r) for r in runs] == [1, 1], runs
