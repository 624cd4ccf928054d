"""Tables that must not slow or block others: Slide's target bounded, few tables of bots only
per player, a fair share of the bot workers, a create that does not scan every live table,
idle and finished tables unloaded (and served again, unchanged), a quick restart with many
running tables. Figures: docs/reliability.md ("Tables and bots"), bench/hostile_tables.py."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import event, insert

from cardtable import games
from cardtable.bots import make_bot
from cardtable.server.storage import store as db
from cardtable.server.tables import hub as hub_module
from cardtable.server.tables.botpool import RemoteBot
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.hub import Hub
from helpers import load_bench

# -- limits, over HTTP against a real server -------------------------------------------------


def test_a_slide_target_over_the_maximum_is_refused(people):
    ann = people("Ann")
    for target in (10**18, 1001):
        answer = ann.http.post(
            "/api/tables",
            json={"game": "slide", "seats": ["me", "greedy"], "options": {"target": target}},
        )
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == "bad_request"
        assert "at most 1000" in answer.json()["message"]
    assert ann.new_table("slide", ["me", "greedy"], target=1000)["options"]["target"] == 1000


def test_the_fourth_table_of_bots_only_is_refused(people):
    ann, bob = people("Ann"), people("Bob")
    for _ in range(3):  # a target of 1000: they play for a while
        ann.new_table("slide", ["greedy", "random"], target=1000)
    answer = ann.http.post(
        "/api/tables",
        json={"game": "slide", "seats": ["greedy", "greedy"], "options": {"target": 1000}},
    )
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"] == "too_many_bot_tables"
    # a table Ann sits at herself, or one with a seat open for a friend, is no table of bots
    ann.new_table("slide", ["me", "greedy"])
    opened = ann.new_table("slide", ["open", "greedy"])
    bob.new_table("slide", ["greedy", "greedy"])  # the limit is per player
    # nor can an open seat handed to a bot make a fourth
    answer = ann.http.post(f"/api/tables/{opened['id']}/seats/0/bot", json={"bot": "greedy"})
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"] == "too_many_bot_tables"


# -- in-process hubs on a temporary SQLite store ---------------------------------------------


@pytest.fixture
def store(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'hub.sqlite'}")
    yield store
    store.close()


async def stop(hub: Hub) -> None:
    """Stop the tables' bots, then the hub (bots asked after the pool closes would pass
    their seats to greedy bots and play on meanwhile)."""
    tasks = [t.bot_task for t in hub.tables.values() if t.bot_task]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await hub.close()


async def wait_for(check, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.005)


async def test_a_persons_bot_is_served_before_tables_of_bots_only(store):
    """Eight tables of six search:hard bots each keep the one worker busy; the bot of a
    person's table waits for the call in progress only, not for a call of each of them."""
    hub = Hub(store, bot_delay=0.0, bot_timeout=60, bot_workers=1)
    hub.loop = asyncio.get_running_loop()
    try:
        makers = [store.new_player(f"bots{i}")[0] for i in range(3)]
        crowd = [
            hub.create(makers[i % 3], "slide", ["search:hard"] * 6, {"target": 1000}, seed=100 + i)
            for i in range(8)
        ]
        others = [b for t in crowd for b in t.bots.values()]

        def served() -> int:
            return sum(b.calls for b in others)

        await wait_for(lambda: served() > 16)  # every table of bots is thinking
        ann, _ = store.new_player("Ann")
        table = hub.create(ann, "slide", ["me", "search:hard"], {}, seed=7)
        bot, greedy = table.bots[1], make_bot("greedy", "slide")
        waited: list[int] = []  # calls of the other tables served while Ann's bot was due
        seconds: list[float] = []
        while len(waited) < 12 and table.status == "running":
            if 1 in table.state.to_act():
                calls, before, version, t0 = bot.calls, served(), table.version, time.monotonic()
                await wait_for(lambda c=calls: bot.calls > c)
                waited.append(served() - before)
                seconds.append(time.monotonic() - t0)
                await wait_for(lambda v=version: table.version > v)  # its action is stored
            elif 0 in table.state.to_act():
                view, legal = table.state.view(0), table.state.legal(0)
                assert (await hub.act(table, 0, greedy.choose(view, legal)))["type"] == "ack"
            else:
                await asyncio.sleep(0.002)
        print("calls of other tables served meanwhile", waited, "seconds", seconds)
        assert all(t.status == "running" for t in crowd)
        # first come first served, each wait holds about one call of each of the 8 tables
        assert max(waited) <= 2, waited
    finally:
        await stop(hub)


def many_live_tables(
    store: db.Store, count: int, by: str = "someone", bot: str | None = None
) -> None:
    """``count`` running tables of The Game written straight into the store (as
    bench/load.py does), created by another player; with ``bot``, it plays seat 1."""
    if not store.names([by]):
        with store.engine.begin() as conn:
            conn.execute(
                insert(db.Player.__table__),
                [{"id": by, "name": by, "token_hash": by, "created_at": db.now()}],
            )
    start = len(store.tables(["open", "running", "over"], limit=10**6))
    rows = [
        {
            "id": f"live{start + i:06d}",
            "game": "the-game",
            "seed": 1 + i,
            "players": 2,
            "options": {},
            "status": "running",
            "created_by": by,
            "created_at": db.now(),
            "redo": [],
            "version": 0,
        }
        for i in range(count)
    ]
    seats = [
        {
            "table_id": r["id"],
            "seat": s,
            "player_id": None if bot and s else by,
            "bot": bot if s else None,
        }
        for r in rows
        for s in range(2)
    ]
    with store.engine.begin() as conn:
        conn.execute(insert(db.Table.__table__), rows)
        conn.execute(insert(db.Seat.__table__), seats)


@pytest.mark.perf
async def test_creating_a_table_does_not_scan_the_live_tables(store):
    hub = Hub(store, bot_delay=0.0)
    hub.loop = asyncio.get_running_loop()
    statements: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    def create_times(creator: db.Player, n: int) -> tuple[list[float], list[list[str]]]:
        times, runs = [], []
        for _ in range(n):
            statements.clear()
            t0 = time.perf_counter()
            table = hub.create(creator, "doublets", ["me"], {})
            times.append(time.perf_counter() - t0)
            runs.append(list(statements))
            store.set_status(table.id, "over", {})  # stays under the table limit
            hub.tables.pop(table.id)
        return times, runs

    try:
        ann, _ = store.new_player("Ann")
        few, few_runs = create_times(ann, 15)
        many_live_tables(store, 4000)
        many, many_runs = create_times(ann, 15)
        # the same statements whatever the number of live tables; one of them counts
        assert {len(r) for r in few_runs} == {len(r) for r in many_runs}, (few_runs, many_runs)
        checks = [s for s in many_runs[0] if "count(" in s.lower() and "created_by" in s]
        assert len(checks) == 1, many_runs[0]
        print(
            "create, ms: few live tables",
            statistics.median(few) * 1000,
            "4,000",
            statistics.median(many) * 1000,
        )
        # a scan of 4,000 rows took ~10x as long as the rest of create
        assert statistics.median(many) < 3 * statistics.median(few) + 0.005, (few, many)
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
        await stop(hub)


def snapshot(hub: Hub, table) -> dict:
    info = table.info(table.created_by)
    for seat in info["seats"]:  # seconds from now: two reads differ by design
        seat.pop("hand_over_in", None)
    return {
        "info": info,
        "version": table.version,
        "actions": list(table.state.actions),
        "redo": list(table.redo),
        "notices": list(table.notices),
        "status": table.status,
        "bots": {s: (type(b).__name__, getattr(b, "blob", None)) for s, b in table.bots.items()},
        "legal": {s: table.state.legal(s) for s in range(table.players)},
        "record": hub.record(table) if table.status == "over" else None,
    }


async def test_idle_and_finished_tables_are_unloaded_and_come_back_unchanged(store):
    hub = Hub(store, bot_delay=0.0, bot_timeout=60, bot_workers=1)
    hub.loop = asyncio.get_running_loop()
    try:
        ann, _ = store.new_player("Ann")
        finished = hub.create(ann, "slide", ["greedy", "random"], {}, seed=3)
        finished.notices.append("a notice the store does not hold")
        await wait_for(lambda: finished.status == "over")
        # a running table where Ann is to act and a thinking bot waits (it has played)
        running = hub.create(ann, "slide", ["me", "search:normal"], {}, seed=4)
        await wait_for(lambda: running.bots[1].calls >= 1 and 1 not in running.state.to_act())
        # a solitaire with something to redo
        solo = hub.create(ann, "doublets", ["me"], {}, seed=5)
        for _ in range(3):
            await hub.act(solo, 0, solo.state.legal(0)[0])
        await hub.undo(solo, ann)
        watched = hub.create(ann, "doublets", ["me"], {}, seed=6)
        watched.conns.add(Conn(seat=0, player_id=ann.id))
        before = {t.id: snapshot(hub, t) for t in (finished, running, solo)}
        now = time.monotonic()

        assert hub.sweep(now + 1) == 0  # in use a moment ago: all stay
        assert hub.sweep(now + hub_module.UNLOAD_FINISHED_AFTER + 1) == 1
        assert finished.id not in hub.tables and running.id in hub.tables
        assert hub.sweep(now + hub_module.UNLOAD_IDLE_AFTER + 1) == 2
        assert set(hub.tables) == {watched.id}  # a table with a connection stays

        for table_id, was in before.items():
            again = hub.load(table_id)
            assert snapshot(hub, again) == was, table_id
        # the bot remembers what it had seen: the very same bot, not a new one
        assert hub.tables[running.id].bots[1] is running.bots[1]
        assert isinstance(running.bots[1], RemoteBot)
        # and the game goes on from there: Ann plays, her bot answers
        again, greedy = hub.tables[running.id], make_bot("greedy", "slide")
        calls = again.bots[1].calls
        for _ in range(20):
            if again.bots[1].calls > calls:
                break
            if 0 in again.state.to_act():
                view, legal = again.state.view(0), again.state.legal(0)
                assert (await hub.act(again, 0, greedy.choose(view, legal)))["type"] == "ack"
            await asyncio.sleep(0.2)
        assert again.bots[1].calls > calls
    finally:
        await stop(hub)


@pytest.mark.own_process
def test_a_finished_table_is_served_after_a_restart_loads_it_lazily(people, server):
    ann = people("Ann")
    table = ann.new_table("slide", ["greedy", "greedy"])
    for _ in range(200):
        info = ann.http.get(f"/api/tables/{table['id']}").json()
        if info["status"] == "over":
            break
        time.sleep(0.05)
    assert info["status"] == "over"
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    server.restart()
    assert ann.http.get(f"/api/tables/{table['id']}").json()["version"] == info["version"]
    assert ann.http.get(f"/api/tables/{table['id']}/record").json() == record
    step = ann.http.get(f"/api/tables/{table['id']}/replay", params={"step": 5}).json()
    assert step["steps"] == len(record["actions"]) and step["step"] == 5
    assert games.replay(record).over


@pytest.mark.own_process
@pytest.mark.perf
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_restart_with_thousands_of_running_tables_is_quick_and_resumes_the_bots(tmp_path: Path):
    chaos = load_bench("chaos")
    empty = chaos.ServerProcess(tmp_path / "empty")
    (tmp_path / "empty").mkdir()
    t0 = time.monotonic()
    empty.start()
    empty_start = time.monotonic() - t0
    empty.kill()

    (tmp_path / "full").mkdir()
    server = chaos.ServerProcess(tmp_path / "full")
    store = db.Store(server.url)
    many_live_tables(store, 3000)
    many_live_tables(store, 1000, bot="greedy")  # to resume: loaded while the server answers
    with store.engine.begin() as conn:  # one running table of bots only, to resume
        conn.execute(
            insert(db.Table.__table__),
            [
                {
                    "id": "botsonly",
                    "game": "slide",
                    "seed": 9,
                    "players": 2,
                    "options": {},
                    "status": "running",
                    "created_by": "someone",
                    "created_at": db.now(),
                    "redo": [],
                    "version": 0,
                }
            ],
        )
        conn.execute(
            insert(db.Seat.__table__),
            [
                {"table_id": "botsonly", "seat": s, "player_id": None, "bot": "greedy"}
                for s in range(2)
            ],
        )
    store.close()
    t0 = time.monotonic()
    server.start()
    full_start = time.monotonic() - t0
    try:
        print(f"start: empty {empty_start:.2f} s, 4,000 running tables {full_start:.2f} s")
        # base loaded all 4,000 tables first (~2 ms each)
        assert full_start < empty_start + 2.0, (empty_start, full_start)
        # the table of bots was resumed: it plays with nobody asking for it
        with httpx.Client(base_url=server.base, timeout=10) as http:
            for _ in range(200):
                if http.get("/api/tables/botsonly").json()["status"] == "over":
                    break
                time.sleep(0.05)
            assert http.get("/api/tables/botsonly").json()["status"] == "over"
            # the others are loaded on first use
            assert http.get("/api/tables/live000123").json()["status"] == "running"
            assert http.get("/api/tables/live003999").json()["seats"][1]["bot"] == "greedy"
    finally:
        server.kill()
