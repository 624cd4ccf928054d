"""Group commit: the actions of many tables in one transaction, off the event loop, each
stored before it is acknowledged or broadcast; one bad row fails only its own action."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from cardtable.bots import make_bot
from cardtable.server.storage import store as db
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.hub import Hub


async def tables_of_people(hub: Hub, store: db.Store, count: int):
    out = []
    for i in range(count):
        people = [store.new_player(f"p{i}-{s}")[0] for s in range(2)]
        table = hub.create(people[0], "the-game", ["me", "open"], {}, seed=i)
        await hub.join(table, people[1], 1)
        out.append(table)
    return out


def first_move(table) -> tuple[int, str]:
    seat = table.state.to_act()[0]
    return seat, make_bot("greedy", "the-game").choose(
        table.state.view(seat), table.state.legal(seat)
    )


async def test_actions_of_many_tables_share_commits(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    hub = Hub(store, bot_delay=0)
    try:
        tables = await tables_of_people(hub, store, 30)
        before = store.count_actions()
        answers = await asyncio.gather(
            *(hub.act(t, *first_move(t), client_id=f"c{i}") for i, t in enumerate(tables))
        )
        assert all(a["type"] == "ack" for a in answers), answers
        assert store.count_actions() == before + 30
        assert hub.writer.rows == 30 and hub.writer.commits < 30  # grouped
        for t in tables:  # the live table and the stored log agree
            assert [(a.seat, a.action) for a in store.actions(t.id)] == list(
                map(tuple, t.state.actions)
            )
    finally:
        store.close()


async def test_nothing_is_acknowledged_or_broadcast_before_it_is_stored(
    tmp_path: Path, monkeypatch
):
    store = db.Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    hub = Hub(store, bot_delay=0)
    try:
        (table,) = await tables_of_people(hub, store, 1)
        conn = Conn(seat=0, player_id=table.seats[0]["player_id"])
        await hub.connect(table, conn)
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
        release, entered = threading.Event(), threading.Event()
        real = store.append_many

        def slow_append(rows):
            entered.set()
            release.wait(10)
            real(rows)

        monkeypatch.setattr(store, "append_many", slow_append)
        version = table.version
        acting = asyncio.create_task(hub.act(table, *first_move(table), client_id="x"))
        while not entered.is_set():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the event loop runs on while SQLite works
        assert not acting.done() and conn.outbox.empty() and table.version == version
        assert store.count_actions() == 0
        release.set()
        answer = await acting
        assert answer["type"] == "ack" and table.version == version + 1
        assert store.count_actions() == 1 and not conn.outbox.empty()
    finally:
        store.close()


async def test_a_bad_row_fails_alone(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    hub = Hub(store, bot_delay=0)
    try:
        tables = await tables_of_people(hub, store, 3)
        rows = [
            {
                "table_id": t.id,
                "n": 0,
                "seat": 0,
                "action": "signal up1 avoid",
                "version": 5,
                "client_id": None,
            }
            for t in tables
        ]
        clash = dict(rows[1])  # the same position of the same table, twice in one batch
        futures = [hub.writer.submit(r) for r in [*rows, clash]]
        results = await asyncio.gather(*futures, return_exceptions=True)
        assert results[:3] == [None, None, None]
        assert isinstance(results[3], IntegrityError)
        assert store.count_actions() == 3
    finally:
        store.close()


def test_append_many_is_all_or_nothing(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    try:
        player, _ = store.new_player("Ann")
        store.new_table(
            db.Table(
                id="t1",
                game="doublets",
                seed=1,
                players=1,
                options={},
                status="running",
                created_by=player.id,
                redo=[],
                version=0,
            ),
            [db.Seat(table_id="t1", seat=0, player_id=player.id, bot=None)],
        )
        row = {"table_id": "t1", "n": 0, "seat": 0, "action": "x", "version": 1}
        with pytest.raises(IntegrityError):
            store.append_many([row, {**row, "action": "y"}])
        assert store.count_actions() == 0
        store.append_many([row])
        assert [a.action for a in store.actions("t1")] == ["x"]
        assert store.table("t1").version == 1
    finally:
        store.close()
