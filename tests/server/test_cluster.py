"""Several server processes on one database and one Redis (``serve --bus``): one table played
through different processes, a process killed mid-game and its tables finished through the
others. Real parts: three ``cardtable serve`` processes, Debian's ``redis-server``, and
PostgreSQL when ``CARDTABLE_TEST_PG_URL`` names one (else one SQLite file they share)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from cardtable.bots import make_bot
from cardtable.server.api.messages import NotHolder
from cardtable.server.cluster.bus import Bus
from cardtable.server.storage import store as db
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.live import bot_seat
from helpers import load_bench, play_with_greedy
from server.conftest import PG, Client, Server, Socket, fresh_pg_database

# CI sets CARDTABLE_TEST_NEED_REDIS: there a missing redis-server fails these tests
NO_REDIS = shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS")
pytestmark = [
    pytest.mark.own_process,
    pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)"),
]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    proc, url = load_bench("cluster").start_redis(tmp_path)  # (the benches' own)
    yield url
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


async def play_anywhere(
    cluster: list[Server],
    client: Client,
    table_id: str,
    game: str,
    first: int = 0,
    hold: asyncio.Event | None = None,
) -> tuple[dict, int]:
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
                state = await sock.until(
                    lambda s: (
                        s["table"]["status"] == "over"
                        or (s["legal"] and s["seat"] in s["view"]["to_act"])
                    ),
                    timeout=30,
                )
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
    other.http = httpx.Client(
        base_url=server.base, timeout=10, cookies={"cardtable_token": client.token}
    )
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
    ends = await asyncio.gather(
        play_with_greedy(ann_sock, "slide"), play_with_greedy(bob_sock, "slide")
    )
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


@pytest.mark.perf
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
        state = await sock.until(
            lambda s: (
                s["table"]["status"] == "over" or (s["legal"] and s["seat"] in s["view"]["to_act"])
            )
        )
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
    assert mine[: len(acked)] == acked
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
    games_ = [
        asyncio.create_task(play_anywhere(cluster, p, t, "slide", first=i + 1, hold=restarted))
        for i, (p, t) in enumerate(zip(people, tables, strict=True))
    ]
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
    every quarter of a second: a count goes out at one tick and is read at the next, so the
    pause between requests leaves room for two ticks on a busy machine)."""
    cluster = make_cluster(3, "--new-players-per-minute", "3")
    # the shared counts go in windows of a minute on the wall clock (burst over rate): the
    # five requests, 6 s in all, must fall in one, or the fifth starts a fresh count
    into_window = time.time() % 60
    if into_window > 50:
        await asyncio.sleep(60.1 - into_window)
    made = []
    for i in range(5):
        server = cluster[i % 3]
        answer = httpx.post(f"{server.base}/api/me", json={"name": f"N{i}"})
        made.append(answer.status_code)
        await asyncio.sleep(1.2)  # past the sharing of the counts
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
        answer = elsewhere[who].http.post(
            "/api/tables", json={"game": "doublets", "seats": ["me"], "replaces": table["id"]}
        )
        assert answer.status_code == 403, (who, answer.text)
        assert answer.json()["error"] == "not_offered"
    assert (
        elsewhere["Ann"].post(
            "/api/tables", {"game": "doublets", "seats": ["me"], "replaces": solo["id"]}
        )["status"]
        == "running"
    )
    assert ann.http.get(f"/api/tables/{solo['id']}").json()["status"] == "running"


async def play_in_time(sock: Socket, game: str, pace: float) -> tuple[dict, int]:
    """Play a seat with the greedy policy, a move every ``pace`` seconds (well within the
    clock), until the game is over; the last state and the actions acknowledged."""
    bot = make_bot("greedy", game)
    acked = 0
    while True:
        state = await sock.until(
            lambda s: (
                s["table"]["status"] == "over" or (s["legal"] and s["seat"] in s["view"]["to_act"])
            ),
            timeout=30,
        )
        if state["table"]["status"] == "over":
            return state, acked
        await asyncio.sleep(pace)
        answer = await sock.act(bot.choose(state["view"], state["legal"]))
        assert answer["type"] == "ack", answer
        acked += 1


def trouble(server: Server) -> list[str]:
    """The lines of a process's log that say something went wrong with a table."""
    log = (server.data / "server.log").read_text()
    return [
        line
        for line in log.splitlines()
        if any(
            word in line
            for word in (
                "ERROR",
                "Traceback",
                "ran out of time",
                "stayed away",
                "refused",
                "Violation",
            )
        )
    ]


async def test_a_process_that_does_not_hold_a_table_never_runs_a_copy_of_it(
    make_cluster, redis_url
):
    """Issue #23: Ann and Bob play a clocked game at its holder (a) while the other process
    (b) is asked for their My games, the table's info and the lobby again and again. b never
    loads the table, so no stale copy's clock runs out there: no timeout, no seat change, no
    error in either log, and the stored version is the join and the actions played."""
    a, b = make_cluster(2, "--min-clock", "1")
    ann, bob = Client(a, "Ann"), Client(a, "Bob")
    tid = ann.post(
        "/api/tables",
        {
            "game": "slide",
            "seats": ["me", "open"],
            "options": {},
            "clock": {"mode": "move", "seconds": 3},
        },
    )["id"]
    bob.post(f"/api/tables/{tid}/join", {})
    assert holder(redis_url, tid) == pid_of(a)
    ann_sock, bob_sock = await ann.connect(tid), await bob.connect(tid)
    start = await ann_sock.until(lambda s: s["table"]["status"] == "running")
    await bob_sock.until(lambda s: s["table"]["status"] == "running")
    done = asyncio.Event()
    seen: list[dict] = []  # b's My games entries for the table, as Ann and Bob saw them

    async def ask_b() -> int:
        rounds = 0
        async with httpx.AsyncClient(base_url=b.base, timeout=10) as http:
            while not done.is_set():
                for person in (ann, bob):
                    cookie = {"cookie": f"cardtable_token={person.token}"}
                    mine = await http.get("/api/my-games", headers=cookie)
                    assert mine.status_code == 200, mine.text
                    seen.extend(g for g in mine.json()["unfinished"] if g["id"] == tid)
                    info = await http.get(f"/api/tables/{tid}", headers=cookie)
                    assert info.status_code == 200, info.text
                    assert not any(s["bot"] for s in info.json()["seats"]), info.json()
                lobby = await http.get("/api/tables", params={"status": "open,running,over"})
                assert lobby.status_code == 200 and tid in {t["id"] for t in lobby.json()}
                rounds += 1
                await asyncio.sleep(0.05)
        return rounds

    asking = asyncio.create_task(ask_b())
    (end_a, acted_a), (end_b, acted_b) = await asyncio.gather(
        play_in_time(ann_sock, "slide", 0.3), play_in_time(bob_sock, "slide", 0.3)
    )
    done.set()
    rounds = await asking
    await ann_sock.close()
    await bob_sock.close()
    assert rounds >= 10, rounds
    assert end_a["table"]["status"] == end_b["table"]["status"] == "over"
    # nobody ran out of time: the two people hold their seats to the end
    seats = end_a["table"]["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob"] and not any(s["bot"] for s in seats)
    assert not any("ran out of time" in n for s in ann_sock.states for n in s["table"]["notices"])
    # b described the table from its rows: Ann's and Bob's seats, each one's turn in time
    assert seen and {g["seat"] for g in seen} == {0, 1}
    assert all(g["opponents"] in (["Bob"], ["Ann"]) for g in seen)
    assert any(g["your_turn"] and g["your_deadline"] for g in seen)
    assert holder(redis_url, tid) in (pid_of(a), None)  # never b's
    assert trouble(a) == [] and trouble(b) == []
    # the database: the people's seats, and one version per change (the join, each action)
    store = db.Store(a.db_url)
    try:
        row = store.table(tid)
        assert row is not None and row.status == "over"
        assert [s.player_id for s in store.seats(tid)] == [ann.id, bob.id]
        actions = store.actions(tid)
        assert len(actions) == acted_a + acted_b
        assert row.version == start["table"]["version"] + len(actions)
    finally:
        store.close()


async def test_a_write_by_a_process_that_does_not_hold_the_table_is_refused(tmp_path, redis_url):
    """Two hubs on one database and one Redis, as two processes have them: the one that does
    not hold a table can neither load it nor write it (``NotHolder``, before the database);
    nor can its holder once its heartbeat is late (a pause) or its leases are lost."""
    store = db.Store(f"sqlite:///{tmp_path / 'hubs.sqlite'}")
    hubs = [Hub(store), Hub(store)]
    for hub in hubs:
        hub.bus = Bus(redis_url)
        hub.bus.on_lost = hub.drop_all
        await hub.bus.start()
    here, there = hubs
    try:
        ann, _ = store.new_player("Ann")
        table = here.create(ann, "slide", ["me", "open"], {})
        assert await here.own(table.id) and not await there.own(table.id)
        bob, _ = store.new_player("Bob")
        await here.join(table, bob, None)
        before = store.table(table.id)
        assert before is not None and before.status == "running"
        action = table.state.legal(0)[0]
        with pytest.raises(NotHolder):
            there.load(table.id)
        assert table.id not in there.tables
        # the holder's live table reaching the other's engine: every write is refused
        with pytest.raises(NotHolder):
            await there.engine.act(table, 0, action, None, "c1")
        with pytest.raises(NotHolder):
            there.engine.change(table, all_seats=True, seats={0: bot_seat("greedy", "Greedy")})
        with pytest.raises(NotHolder):
            there.engine.leave(table, ann)
        with pytest.raises(NotHolder):
            there.engine.close(table, "idle")
        # a holder whose heartbeat is late writes nothing until it is renewed
        renewed = here.bus.renewed_at
        here.bus.renewed_at -= 60
        with pytest.raises(NotHolder):
            await here.act(table, 0, action, None, "c2")
        here.bus.renewed_at = renewed
        after = store.table(table.id)
        assert after is not None and after.version == before.version
        assert store.actions(table.id) == [] and table.version == before.version
        assert [s.player_id for s in store.seats(table.id)] == [ann.id, bob.id]
        # the holder plays; once it has lost its leases, the table is gone from it too
        assert (await here.act(table, 0, action, None, "c3"))["type"] == "ack"
        assert store.table(table.id).to_act == list(table.state.to_act())
        watching = Conn(seat=None, player_id=None)
        await here.connect(table, watching)
        here.drop_all()
        assert table.id not in here.tables
        assert watching.moved and watching.dropped  # closed with 1012: it reconnects
        with pytest.raises(NotHolder):
            here.load(table.id)
        with pytest.raises(NotHolder):
            await here.engine.act(table, 1, table.state.legal(1)[0], None, "c4")
        assert len(store.actions(table.id)) == 1
    finally:
        for hub in hubs:
            await hub.close()
            await hub.bus.close()
        store.close()


async def reconnect(client: Client, table_id: str, within: float = 10) -> Socket:
    """Connect to a table again and again until a process takes the socket."""
    deadline = time.monotonic() + within
    while True:
        try:
            return await client.connect(table_id)
        except (websockets.InvalidStatus, OSError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.3)


async def test_a_paused_holder_drops_its_tables_and_their_sockets_reconnect(
    make_cluster, redis_url
):
    """A holder paused past its heartbeat (SIGSTOP 4.5 s) has lost its leases: the other
    process takes the table over and its bot plays on. Woken, the paused one writes nothing
    (its heartbeat is stale), drops the table and closes Ann's socket with 1012; she
    reconnects through it, reaches the new holder, and the game ends with a record that
    replays, one stored version per change and no error in either log."""
    a, b = make_cluster(2)
    ann = Client(a, "Ann")
    tid = ann.new_table("the-game", ["me", "greedy"])["id"]
    sock = await ann.connect(tid)
    await sock.until(lambda s: s["table"]["status"] == "running")
    bot = make_bot("greedy", "the-game")
    for _ in range(4):  # a few turns at the first holder
        state = await sock.until(lambda s: s["legal"] and s["seat"] in s["view"]["to_act"])
        await sock.act(bot.choose(state["view"], state["legal"]))
    assert a.proc is not None
    os.kill(a.proc.pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 10
        while holder(redis_url, tid) != pid_of(b):  # taken over once a's heartbeat lapsed
            assert time.monotonic() < deadline, "never taken over"
            await asyncio.sleep(0.2)
    finally:
        os.kill(a.proc.pid, signal.SIGCONT)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await sock.recv(timeout=15)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    # through a, forwarded to b (as the browser does, again until a is back on the bus)
    sock = await reconnect(ann, tid)
    end = await play_with_greedy(sock, "the-game")
    await sock.close()
    assert end["table"]["status"] == "over"
    assert holder(redis_url, tid) in (pid_of(b), None)
    assert "lost its leases" in (a.data / "server.log").read_text()
    assert [line for line in trouble(a) + trouble(b) if "refused" not in line] == []
    record = httpx.get(f"{b.base}/api/tables/{tid}/record").json()
    assert replays(record)
    store = db.Store(a.db_url)
    try:
        row = store.table(tid)
        assert row is not None and row.version == len(store.actions(tid))
    finally:
        store.close()
