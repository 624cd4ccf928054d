"""Several server processes on one database and one Redis (``serve --bus``): one table played
through different processes, a process killed mid-game and its tables finished through the
others. Real parts: three ``cardtable serve`` processes, Debian's ``redis-server``, and
PostgreSQL when ``CARDTABLE_TEST_PG_URL`` names one (else one SQLite file they share)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from cardtable.bots import make_bot
from helpers import load_bench, play_with_greedy
from server.conftest import PG, Client, Server, Socket, free_port, fresh_pg_database

# CI sets CARDTABLE_TEST_NEED_REDIS: there a missing redis-server fails these tests
NO_REDIS = shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS")
pytestmark = [pytest.mark.own_process, pytest.mark.skipif(
    NO_REDIS, reason="no redis-server (apt-get install redis-server)")]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait()


@pytest.fixture
def make_cluster(tmp_path: Path, redis_url: str) -> Iterator[Any]:
    """``make_cluster(n, *serve_args)``: n processes on one database and one Redis."""
    url = fresh_pg_database(PG) if PG else f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
    servers: list[Server] = []

    def make(n: int = 3, *args: str) -> list[Server]:
        for i in range(n):
            data = tmp_path / f"p{i}"
            data.mkdir()
            servers.append(Server(url, data, ["--bus", redis_url, *args]))
        servers[0].start()  # the first creates the schema; the others find it
        for s in servers[1:]:
            s.start()
        return servers

    yield make
    for s in servers:
        s.kill()


@pytest.fixture
def cluster(make_cluster) -> list[Server]:
    return make_cluster(3)


def pid_of(server: Server) -> str:
    """The process's id on the bus, from its log."""
    log = (server.data / "server.log").read_text()
    return re.findall(r"as process ([0-9a-f]+)", log)[-1]


def holder(redis_url: str, table_id: str) -> str | None:
    import redis

    value = redis.Redis.from_url(redis_url).get(f"ct:lease:{table_id}")
    return value.decode() if value else None


def stop(server: Server) -> None:
    """A graceful stop (SIGTERM), as a rolling restart does it."""
    assert server.proc is not None
    server.proc.terminate()
    server.proc.wait(30)


async def play_anywhere(cluster: list[Server], client: Client, table_id: str,
                        game: str, first: int = 0,
                        hold: asyncio.Event | None = None) -> tuple[dict, int]:
    """Play a seat with the greedy policy until the game is over, reconnecting to the next
    process whenever the socket closes (a process stopped, or the table moved); the last
    state and how many times it reconnected. Until ``hold`` is set, a move takes half a
    second, and the last few moves wait for it: the game lasts as long as the test needs."""
    reconnects, i, moves = 0, first, 0
    bot = make_bot("greedy", game)
    while True:
        server = cluster[i % len(cluster)]
        try:
            sock = await at(client, server).connect(table_id)
            while True:
                state = await sock.until(lambda s: s["table"]["status"] == "over" or (
                    s["legal"] and s["seat"] in s["view"]["to_act"]), timeout=30)
                if state["table"]["status"] == "over":
                    await sock.close()
                    return state, reconnects
                if hold is not None and not hold.is_set():
                    await asyncio.sleep(0.5)
                    if moves >= 20:
                        await hold.wait()
                answer = await sock.act(bot.choose(state["view"], state["legal"]))
                moves += 1
                # stale: a bot moved meanwhile; moved: the table is changing process
                assert answer["type"] == "ack" or answer["code"] in ("stale", "moved"), answer
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            reconnects += 1
            i += 1
            await asyncio.sleep(0.2)


#: a record played again through the engine reaches the end (bench/failover.py's check)
replays = load_bench("failover").replays


def at(client: Client, server: Server) -> Client:
    """The same person reaching another process (the same token: one database)."""
    other = Client.__new__(Client)
    other.server, other.id, other.token = server, client.id, client.token
    other.http = httpx.Client(base_url=server.base, timeout=10,
                              cookies={"cardtable_token": client.token})
    return other


async def connect(client: Client, table_id: str) -> Socket:
    return await client.connect(table_id)


async def test_one_table_played_through_three_processes(cluster, redis_url):
    a, b, c = cluster
    ann = Client(a, "Ann")
    bob = Client(b, "Bob")
    table = ann.new_table("slide", ["me", "open"])
    assert holder(redis_url, table["id"]) == pid_of(a)
    # Bob joins through another process, and each plays through a third one
    joined = bob.post(f"/api/tables/{table['id']}/join", {})
    assert joined["seat"] == 1
    ann_c, bob_a = at(ann, c), at(bob, a)
    ann_sock = await connect(ann_c, table["id"])
    bob_sock = await connect(bob_a, table["id"])
    await ann_sock.until(lambda s: s["table"]["status"] == "running")
    ends = await asyncio.gather(play_with_greedy(ann_sock, "slide"),
                                play_with_greedy(bob_sock, "slide"))
    assert all(e["table"]["status"] == "over" for e in ends)
    assert holder(redis_url, table["id"]) == pid_of(a)  # it never moved: b and c forwarded
    # the same record from every process, and it replays
    records = [httpx.get(f"{s.base}/api/tables/{table['id']}/record").json() for s in cluster]
    assert records[0] == records[1] == records[2]
    assert replays(records[0])
    # Bob's view never showed Ann's face-down cards: the redaction ran at the holder
    for message in bob_sock.states:
        assert message["seat"] == 1
    await ann_sock.close()
    await bob_sock.close()


async def test_a_killed_process_s_table_is_finished_through_the_others(cluster, redis_url):
    a, b, c = cluster
    ann = Client(a, "Ann")
    # the table is held by the process that made it (a); Ann plays through b
    table = ann.new_table("the-game", ["me", "expert"])
    sock = await connect(at(ann, b), table["id"])
    await sock.until(lambda s: s["table"]["status"] == "running")
    bot = make_bot("greedy", "the-game")
    acked: list[str] = []
    for _ in range(6):  # a few turns' worth
        state = await sock.until(lambda s: s["table"]["status"] == "over" or (
            s["legal"] and s["seat"] in s["view"]["to_act"]))
        action = bot.choose(state["view"], state["legal"])
        answer = await sock.act(action)
        if answer["type"] == "ack":
            acked.append(action)
    a.kill()  # SIGKILL: the holder is gone mid-game
    killed = time.monotonic()
    # b closes Ann's socket with 1012 once it sees the holder gone; she reconnects (to c)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await sock.recv(timeout=15)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    sock = await connect(at(ann, c), table["id"])
    state = await sock.until(lambda s: s["table"]["status"] == "running")
    back = time.monotonic() - killed
    assert back < 6, f"the table came back after {back:.1f} s"
    end = await play_with_greedy(sock, "the-game")
    assert end["table"]["status"] == "over"
    record = httpx.get(f"{c.base}/api/tables/{table['id']}/record").json()
    mine = [action for seat, action in record["actions"] if seat == 0]
    # nothing acknowledged was lost, nothing applied twice: the record replays to the end
    assert mine[:len(acked)] == acked
    assert replays(record)
    assert holder(redis_url, table["id"]) in (pid_of(b), pid_of(c))
    await sock.close()


async def test_every_lobby_lists_every_process_s_tables_and_who_is_there(cluster):
    people = [Client(s, f"P{i}") for i, s in enumerate(cluster)]
    made = [p.new_table("slide", ["me", "open"])["id"] for p in people]
    for s in cluster:
        listed = {t["id"] for t in httpx.get(f"{s.base}/api/tables").json()}
        assert set(made) <= listed
    # P0 sits at its table (held by process 0); the lobby of process 2 shows P0 there
    sock = await people[0].connect(made[0])
    await sock.until(lambda s: True)
    deadline = time.monotonic() + 5
    while True:
        listed = {t["id"]: t for t in httpx.get(f"{cluster[2].base}/api/tables").json()}
        if listed[made[0]]["seats"][0]["connected"]:
            break
        assert time.monotonic() < deadline, listed[made[0]]
        await asyncio.sleep(0.2)
    assert listed[made[1]]["seats"][0]["connected"] is False
    await sock.close()


async def test_a_rolling_restart_with_games_running(cluster):
    """Every process stopped and started again in turn, while three games go on (a person
    and a bot at each, the people reaching different processes): every game ends, and its
    record replays."""
    people = [Client(s, f"P{i}") for i, s in enumerate(cluster)]
    tables = [p.new_table("slide", ["me", "greedy"])["id"] for p in people]
    restarted = asyncio.Event()  # the games hold their last moves until then
    games_ = [asyncio.create_task(play_anywhere(cluster, p, t, "slide", first=i + 1,
                                                hold=restarted))
              for i, (p, t) in enumerate(zip(people, tables, strict=True))]
    await asyncio.sleep(1.0)
    for server in cluster:
        await asyncio.to_thread(stop, server)
        await asyncio.sleep(0.5)
        await asyncio.to_thread(server.start)
        await asyncio.sleep(0.5)
    early = [g.exception() or g.result()[0]["view"] for g in games_ if g.done()]
    assert not early, f"a game ended before the restarts were over: {early}"
    restarted.set()
    ends = await asyncio.wait_for(asyncio.gather(*games_), 180)
    assert all(end["table"]["status"] == "over" for end, _ in ends)
    assert all(n >= 1 for _, n in ends)  # every game lived through a cut socket
    for t in tables:
        record = httpx.get(f"{cluster[0].base}/api/tables/{t}/record").json()
        assert replays(record)


async def test_a_limit_holds_whichever_process_a_client_reaches(make_cluster):
    """Three new players a minute per address: each process alone would let three more
    through, but over the three processes the fourth is refused (the counts are shared
    every quarter of a second)."""
    cluster = make_cluster(3, "--new-players-per-minute", "3")
    made = []
    for i in range(5):
        server = cluster[i % 3]
        answer = httpx.post(f"{server.base}/api/me", json={"name": f"N{i}"})
        made.append(answer.status_code)
        await asyncio.sleep(0.6)  # past the sharing of the counts
    assert made[:3] == [200, 200, 200]
    assert made[3:] == [429, 429], made


async def test_a_new_deal_replacing_a_table_another_process_holds(make_cluster, redis_url):
    """#23: a new deal's ``replaces`` follows the table tools' rule at a process that does not
    hold that table too (read from the store): a stranger's solitaire or a shared table is
    refused (403 ``not_offered``), one's own solitaire is not."""
    first, second = make_cluster(2)
    ann, bob = Client(first, "Ann"), Client(first, "Bob")
    solo = ann.new_table("doublets", ["me"])
    shared = ann.new_table("the-game", ["me", "open"])
    assert holder(redis_url, solo["id"]) == holder(redis_url, shared["id"]) == pid_of(first)
    elsewhere = {"Ann": at(ann, second), "Bob": at(bob, second)}
    for who, table in (("Bob", solo), ("Ann", shared)):
        answer = elsewhere[who].http.post("/api/tables", json={
            "game": "doublets", "seats": ["me"], "replaces": table["id"]})
        assert answer.status_code == 403, (who, answer.text)
        assert answer.json()["error"] == "not_offered"
    assert elsewhere["Ann"].post("/api/tables", {"game": "doublets", "seats": ["me"],
                                                 "replaces": solo["id"]})["status"] == "running"
    assert ann.http.get(f"/api/tables/{solo['id']}").json()["status"] == "running"
