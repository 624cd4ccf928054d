"""Game review on the server (#27): asked through the API, made by a worker process of its own,
stored in the database, bounded (a daily number per player, the queue's length), one per
table. Real servers and real clients; the reviews are real (the engine, on finished games)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from helpers import play_with_greedy, stuck
from server.conftest import PG, Client, InProcessServer, Server, fresh_pg_database


def db_url(tmp_path: Path) -> str:
    return fresh_pg_database(PG) if PG else f"sqlite:///{tmp_path / 'cardtable.sqlite'}"


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator:
    """``make_server(*serve_args, own=False)``: a server with these options (``own``: in a
    process of its own, which a test may restart)."""
    made: list[Server] = []

    def make(*args: str, own: bool = False) -> Server:
        data = tmp_path / f"s{len(made)}"
        data.mkdir()
        srv = (Server if own else InProcessServer)(db_url(tmp_path), data, list(args))
        srv.start()
        made.append(srv)
        return srv

    yield make
    for srv in made:
        if isinstance(srv, InProcessServer):
            srv.stop()
        else:
            srv.kill()


def bots_table(client: Client, game: str, seats: list[str]) -> str:
    """A table of bots, made by ``client``, played to its end; its id."""
    table = client.new_table(game, seats)
    wait_for(lambda: client.http.get(f"/api/tables/{table['id']}").json()["status"] == "over")
    return table["id"]


async def finished_doublets(client: Client) -> str:
    """A Doublets deal the client plays with the greedy policy to its end (resigned when it
    is stuck, as a person gives up a lost deal): a finished table's id."""
    table = client.new_table("doublets", ["me"])
    sock = await client.connect(table["id"])
    state = await play_with_greedy(sock, "doublets")
    await sock.close()
    if stuck(state):
        client.post(f"/api/tables/{table['id']}/resign")
    assert client.http.get(f"/api/tables/{table['id']}").json()["status"] == "over"
    return table["id"]


def wait_for(check, timeout: float = 60, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(every)


def ask(client: Client | httpx.Client, table_id: str, depth: str = "quick") -> httpx.Response:
    http = client.http if isinstance(client, Client) else client
    return http.post(f"/api/tables/{table_id}/review", json={"depth": depth})


def follow(http: httpx.Client, table_id: str, timeout: float = 300) -> list[dict]:
    """Every answer of ``GET .../review`` until the review is done or failed."""
    seen: list[dict] = []
    deadline = time.monotonic() + timeout
    while not seen or seen[-1]["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, seen[-1:]
        answer = http.get(f"/api/tables/{table_id}/review")
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())
        time.sleep(0.05)
    return seen


def runs_logged(server: Server, table_id: str) -> int:
    """How many times a worker of ``server`` finished the table's review (its log)."""
    return (server.data / "server.log").read_text().count(f"review of table {table_id}:")


@pytest.mark.own_process
async def test_a_finished_doublets_game_is_reviewed_with_progress_and_kept_after_a_restart(
    make_server,
):
    srv = make_server(own=True)
    ann = Client(srv, "Ann")
    table_id = await finished_doublets(ann)
    assert ann.http.get(f"/api/tables/{table_id}/review").json()["status"] == "none"
    answer = ask(ann, table_id, "deep")
    assert answer.status_code == 202, answer.text
    assert answer.json()["status"] == "queued"
    seen = follow(ann.http, table_id)
    done = seen[-1]
    assert done["status"] == "done", done
    # the progress moved while it ran: a count between none and all was read, never backwards
    counts = [a["done"] for a in seen if a["status"] == "running"]
    assert any(0 < n < done["total"] for n in counts), counts
    assert counts == sorted(counts)
    review = done["review"]
    assert done["done"] == done["total"] >= len(review["moves"])  # (a forced move is no call)
    assert review["game"] == "doublets" and review["seats"] == [0] and review["depth"] == "deep"
    assert review["summary"][0]["decisions"] == len(review["moves"]) > 0
    assert review["verdict"]["peeking"] is True
    assert done["cpu"] > 0 and done["finished_at"]
    # stored: the same after the server's restart, for a spectator too
    srv.restart()
    again = httpx.get(f"{srv.base}/api/tables/{table_id}/review").json()
    assert again == done
    # asking again answers the one made, without running it again
    answer = ask(Client(srv, "Bob"), table_id)
    assert answer.status_code == 202 and answer.json() == done


@pytest.mark.own_process
def test_a_review_cut_by_a_restart_is_made_after_it(make_server):
    """The server killed while a review runs: the new server queues it again (the row says
    it ran), and it is made."""
    srv = make_server(own=True)
    ann = Client(srv, "Ann")
    table_id = bots_table(ann, "the-game", ["greedy", "greedy"])
    assert ask(ann, table_id).status_code == 202
    wait_for(lambda: ann.http.get(f"/api/tables/{table_id}/review").json()["status"] == "running")
    srv.restart()
    assert follow(httpx.Client(base_url=srv.base), table_id)[-1]["status"] == "done"


async def test_an_unfinished_table_is_refused(make_server):
    srv = make_server()
    ann = Client(srv, "Ann")
    table = ann.new_table("doublets", ["me"])
    answer = ask(ann, table["id"])
    assert answer.status_code == 409 and answer.json()["error"] == "not_over", answer.text
    assert ann.http.get(f"/api/tables/{table['id']}/review").status_code == 409
    assert ask(ann, "nosuchtable").status_code == 404
    # a person only: without a player, nobody to count the review against
    anonymous = httpx.post(f"{srv.base}/api/tables/{table['id']}/review", json={})
    assert anonymous.status_code == 401
    bad = ann.http.post(f"/api/tables/{table['id']}/review", json={"depth": "endless"})
    assert bad.status_code == 422


def test_a_player_asks_for_so_many_reviews_a_day(make_server):
    srv = make_server("--reviews-per-day", "2")
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tables = [bots_table(ann, "doublets", ["greedy"]) for _ in range(3)]
    assert [ask(ann, t).status_code for t in tables[:2]] == [202, 202]
    refused = ask(ann, tables[2])
    assert refused.status_code == 429, refused.text
    body = refused.json()
    assert body["error"] == "review_limit" and 86000 < body["retry_after"] <= 86400
    assert "2 reviews" in body["message"] and int(refused.headers["retry-after"]) > 86000
    assert ask(ann, tables[0]).status_code == 202  # asked before: no new review, no count
    assert ask(bob, tables[2]).status_code == 202  # another player's own number


def test_a_full_queue_is_a_typed_503(make_server):
    srv = make_server("--review-queue", "1")
    ann = Client(srv, "Ann")
    long = bots_table(ann, "the-game", ["greedy", "greedy"])
    short = bots_table(ann, "doublets", ["greedy"])
    assert ask(ann, long).status_code == 202
    busy = ask(ann, short)
    assert busy.status_code == 503, busy.text
    assert busy.json()["error"] == "busy" and busy.json()["retry_after"] > 0
    assert "retry-after" in busy.headers
    assert ann.http.get(f"/api/tables/{short}/review").json()["status"] == "none"
    assert follow(ann.http, long)[-1]["status"] == "done"
    assert ask(ann, short).status_code == 202  # room again


async def test_a_review_asked_twice_at_once_runs_once(make_server):
    logger = logging.getLogger("cardtable.server")
    level = logger.level
    logger.setLevel(logging.INFO)  # (an in-process server's log: its workers' lines)
    try:
        await asked_twice(make_server())
    finally:
        logger.setLevel(level)


async def asked_twice(srv: Server) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    table_id = bots_table(ann, "doublets", ["greedy"])
    answers = await asyncio.gather(
        *(asyncio.to_thread(ask, who, table_id) for who in (ann, bob, ann, bob))
    )
    assert {a.status_code for a in answers} == {202}
    assert len({a.json()["asked_at"] for a in answers}) == 1
    assert follow(ann.http, table_id)[-1]["status"] == "done"
    time.sleep(0.5)
    assert runs_logged(srv, table_id) == 1


def test_a_review_over_its_budget_or_its_time_fails_and_its_worker_is_killed(make_server):
    """The bounds of one review, on the runner itself: past its processor budget the review
    stops itself; past its wall-clock time its worker process is killed. Either way the row
    says why, and the next review runs in a new worker."""
    from cardtable.server.storage.reviews import ReviewStore
    from cardtable.server.storage.store import make_engine
    from cardtable.server.tables.reviews import ReviewRunner

    srv = make_server()
    ann = Client(srv, "Ann")
    tables = [bots_table(ann, "the-game", ["greedy", "greedy"]) for _ in range(2)]
    rows = ReviewStore(make_engine(srv.db_url))

    async def run(table_id: str, budget: float, timeout: float) -> ReviewRunner:
        runner = ReviewRunner(srv.db_url, rows, 1, budget, timeout)
        rows.ask(table_id, ann.id, "normal", rows.table(table_id).version, 20, 8)
        try:
            await runner.run(table_id)
        finally:
            await runner.close()
        return runner

    asyncio.run(run(tables[0], 0.05, 60))
    spent = rows.get(tables[0])
    assert spent.status == "failed" and "processor time" in spent.error, spent.error
    runner = asyncio.run(run(tables[1], 600, 0.5))
    stuck = rows.get(tables[1])
    assert stuck.status == "failed" and "longer than 0.5 s" in stuck.error, stuck.error
    assert runner.pool.killed == 1
