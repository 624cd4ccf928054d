"""A rolling restart under load, as docs/deploy.md ("Upgrades") does it: three ``cardtable
serve --bus ... --drain 2`` processes on one database (PostgreSQL when
``CARDTABLE_TEST_PG_URL`` names one, else one SQLite file) and a real ``redis-server``, two
people at each of three tables of The Game, each person's socket on a process of their own.
Each process in turn: SIGTERM; its ``/readyz`` turns 503 ``stopping`` while the others stay
200; it exits; it starts again on its port; ``/readyz`` 200. The people play on throughout,
reconnecting to a ready process when theirs goes away; an action whose answer was lost with
its socket is sent again only if the table's version shows it was not applied. Every action
sent is accepted, and at the end every game is over, its record replays and holds exactly
the actions acknowledged (or found applied), each once, and the stored version counts them."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from cardtable.bots import make_bot
from cardtable.server.storage import store as db
from helpers import load_bench
from server.conftest import PG, Client, Server, Socket, fresh_pg_database

NO_REDIS = shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS")
pytestmark = [
    pytest.mark.own_process,
    pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)"),
]

GAME = "the-game"
#: seconds between a person's moves until the restarts are over (then as fast as they can)
PACE = 0.15
#: a table waits at this version until the restarts are over: every game outlives them
HOLD_AT = 60

replays = load_bench("failover").replays


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[list[Server]]:
    redis, bus = load_bench("cluster").start_redis(tmp_path)
    url = fresh_pg_database(PG) if PG else f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
    servers = []
    for i in range(3):
        (tmp_path / f"p{i}").mkdir()
        servers.append(Server(url, tmp_path / f"p{i}", ["--bus", bus, "--drain", "2"]))
    try:
        for s in servers:  # the first creates the schema; the others find it
            s.start()
        yield servers
    finally:
        for s in servers:
            s.kill()
        redis.terminate()
        redis.wait()


@dataclass
class Person:
    """One seat's player: the actions the server accepted, as (the version each made,
    action), and what the restarts did to them."""

    client: Client
    table: str
    seat: int
    accepted: list[tuple[int, str]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    reconnects: int = 0
    resent: int = 0  # sent again: not applied when its socket went
    found_applied: int = 0  # applied, its answer lost with its socket: not sent again


def ready(server: Server) -> int:
    try:
        return httpx.get(server.base + "/readyz", timeout=2).status_code
    except httpx.HTTPError:
        return 0


async def connect_ready(cluster: list[Server], person: Person, i: int) -> tuple[Socket, int]:
    """A socket to the person's table through the first ready process from ``i`` on."""
    deadline = time.monotonic() + 30
    while True:
        server = cluster[i % len(cluster)]
        if await asyncio.to_thread(ready, server) == 200:
            url = f"ws://127.0.0.1:{server.port}/ws/tables/{person.table}?token="
            try:
                return Socket(await websockets.connect(url + person.client.token)), i
            except (websockets.InvalidStatus, OSError):
                pass
        assert time.monotonic() < deadline, "no process took the socket"
        i += 1
        await asyncio.sleep(0.1)


async def send(sock: Socket, action: str, version: int, cid: str) -> dict:
    """Send an action under its client id; the server's answer to it."""
    await sock.ws.send(json.dumps({"type": "act", "action": action, "version": version, "id": cid}))
    while True:
        message = await sock.recv(timeout=20)
        if message["type"] in ("ack", "error") and message.get("id") == cid:
            return message


def next_n(state: dict) -> int:
    """The position in the table's record of the next action (the log's ``n``)."""
    return max((e["n"] + 1 for e in state["log"] if not e.get("news")), default=0)


def mine_at(state: dict, n: int, person: Person) -> bool:
    """Whether the action at position ``n`` of the table's record is this person's."""
    entries = [e for e in state["log"] if e["n"] == n and not e.get("news")]
    return bool(entries) and entries[0]["seat"] == person.seat


async def play(cluster: list[Server], person: Person, first: int, restarted: asyncio.Event) -> dict:
    """Play the seat with the greedy policy to the game's end, through whatever ready
    process; the last state."""
    bot = make_bot("greedy", GAME)
    # the action sent, the version it was for, its id, its place in the record
    pending: tuple[str, int, str, int] | None = None
    i, n = first, 0
    while True:
        sock, i = await connect_ready(cluster, person, i)
        try:
            state = await sock.until(lambda s: True)
            if pending is not None:
                action, meant, cid, place = pending
                # at ``meant`` it was this seat's turn: any change since is its action
                if state["version"] > meant:  # applied before the socket went
                    assert mine_at(state, place, person), (state["log"][-3:], pending)
                    person.accepted.append((meant + 1, action))
                    person.found_applied += 1
                else:
                    person.resent += 1
                    answer = await send(sock, action, meant, cid)
                    record(person, answer, action)
                pending = None
            while True:
                least = person.accepted[-1][0] if person.accepted else 0
                state = await sock.until(
                    lambda s: (
                        s["version"] >= least  # noqa: B023 - read at once
                        and (
                            s["table"]["status"] == "over"
                            or (bool(s["legal"]) and s["seat"] in s["view"]["to_act"])
                        )
                    ),
                    timeout=30,
                )
                if state["table"]["status"] == "over":
                    await sock.close()
                    return state
                if not restarted.is_set():
                    await asyncio.sleep(PACE)
                    if state["version"] >= HOLD_AT:
                        await restarted.wait()
                n += 1
                action = bot.choose(state["view"], state["legal"])
                cid = f"{person.client.id[:8]}-{n}"
                pending = (action, state["version"], cid, next_n(state))
                answer = await send(sock, action, state["version"], cid)
                record(person, answer, action)
                pending = None
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            person.reconnects += 1
            i += 1


def record(person: Person, answer: dict, action: str) -> None:
    if answer["type"] == "ack":
        person.accepted.append((answer["version"], action))
    else:
        person.refused.append(answer)


def restart_one(cluster: list[Server], k: int) -> None:
    """SIGTERM to process k: unready at once while the others stay ready; it exits by
    itself; started again on its port, ready again."""
    server, others = cluster[k], [s for j, s in enumerate(cluster) if j != k]
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 1.5  # within the drain
    while ready(server) != 503:
        assert time.monotonic() < deadline, "the stopping process stayed ready"
        time.sleep(0.05)
    assert httpx.get(server.base + "/readyz", timeout=2).json()["reason"] == "stopping"
    assert [ready(s) for s in others] == [200, 200]
    server.proc.wait(30)
    assert server.proc.returncode == -signal.SIGTERM
    server.start()
    deadline = time.monotonic() + 15
    while ready(server) != 200:
        assert time.monotonic() < deadline, "the restarted process never became ready"
        time.sleep(0.1)


async def test_a_rolling_restart_under_load_refuses_no_action(cluster: list[Server]) -> None:
    people: list[Person] = []
    for t in range(3):
        ann = Client(cluster[t], f"A{t}")
        bob = Client(cluster[(t + 1) % 3], f"B{t}")
        table = ann.new_table(GAME, ["me", "open"])["id"]
        assert bob.post(f"/api/tables/{table}/join", {})["seat"] == 1
        people += [Person(ann, table, 0), Person(bob, table, 1)]
    restarted = asyncio.Event()
    games = [
        asyncio.create_task(play(cluster, p, first=k, restarted=restarted))
        for k, p in enumerate(people)
    ]
    await asyncio.sleep(1.0)
    for k in range(len(cluster)):
        await asyncio.to_thread(restart_one, cluster, k)
        early = [g for g in games if g.done()]
        assert not early, [g.exception() or "over" for g in early]
    restarted.set()
    ends = await asyncio.wait_for(asyncio.gather(*games), 60)
    assert all(end["table"]["status"] == "over" for end in ends)
    assert [p.refused for p in people] == [[]] * len(people)  # no action refused
    assert sum(p.reconnects for p in people) >= len(cluster)  # sockets did move
    for k in range(0, len(people), 2):
        consistent(cluster, people[k].table, people[k : k + 2], ends[k])


def consistent(cluster: list[Server], table: str, seated: list[Person], end: dict) -> None:
    """The record replays to the game's end and holds exactly the actions accepted, each
    once, in the order of the versions they made; the stored version is the last state's."""
    record = httpx.get(f"{cluster[0].base}/api/tables/{table}/record", timeout=10).json()
    assert replays(record)
    accepted = sorted((v, p.seat, a) for p in seated for v, a in p.accepted)
    assert len({v for v, _, _ in accepted}) == len(accepted)  # one action per version
    assert [[seat, a] for _, seat, a in accepted] == record["actions"]
    store = db.Store(cluster[0].db_url)
    try:
        row = store.table(table)
        assert row is not None and len(store.actions(table)) == len(accepted)
        assert row.version == end["version"] == accepted[-1][0]
    finally:
        store.close()
    for server in cluster:
        assert "Traceback" not in (server.data / "server.log").read_text()
