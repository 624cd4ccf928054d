"""The table engine on its own: a table's changes over a store, with no socket, no bot and
no hub (what the hub's split promises: the rules of a table are one part)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.server.api.messages import HubError
from cardtable.server.storage import store as db
from cardtable.server.tables.engine import TableEngine


def no_bots(spec: str, game: str) -> None:
    raise AssertionError(f"no bot expected, got {spec!r}")


async def test_the_engine_acts_refuses_stale_actions_undoes_and_stores(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'engine.sqlite'}")
    try:
        engine = TableEngine(store, db.GroupCommit(store))
        ann, _ = store.new_player("Ann")
        bob, _ = store.new_player("Bob")
        table = engine.load(engine.create(ann, "slide", ["me", "open"], {}, None, no_bots))
        assert table.status == "open" and table.seed.bit_length() > 64
        assert (await engine.act(table, 0, "x", None, None))["code"] == "not_started"
        assert engine.join(table, bob, None) == (1, True)
        assert engine.join(table, bob, None) == (1, False)  # seated already: no change
        assert table.status == "running" and table.version == 1
        seen = table.version
        first = table.state.legal(0)[0]
        ack = await engine.act(table, 0, first, seen, "a-1")
        assert ack == {"type": "ack", "id": "a-1", "version": 2, "action": first}
        assert await engine.act(table, 0, first, seen, "a-1") == ack  # a resend: applied once
        assert len(table.state.actions) == 1
        if table.state.legal(0):  # (seat 0 may act again: the version it saw is old now)
            stale = await engine.act(table, 0, table.state.legal(0)[0], seen, "a-2")
            assert stale["code"] == "stale"
        with pytest.raises(HubError) as refused:
            engine.undo(table, ann)
        assert refused.value.code == "not_offered"  # no undo at a shared table
        again = engine.load(table.id)  # what the store holds is what memory holds
        assert again.state.actions == table.state.actions and again.version == table.version
        assert again.recent["0:a-1"] == ack and again.seats == table.seats
    finally:
        store.close()


async def test_the_engine_undoes_and_redoes_a_game_played_alone(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'engine.sqlite'}")
    try:
        engine = TableEngine(store, db.GroupCommit(store))
        ann, _ = store.new_player("Ann")
        table = engine.load(engine.create(ann, "doublets", ["me"], {}, 5, no_bots))
        assert table.info()["can_undo"] is False and table.info()["seed"] == "5"
        action = table.state.legal(0)[0]
        await engine.act(table, 0, action, table.version, "c")
        assert table.info()["can_undo"] is True
        engine.undo(table, ann)
        assert not table.state.actions and table.redo == [[0, action]]
        assert "0:c" not in table.recent  # an undone id may be played again
        engine.redo(table, ann)
        assert table.state.actions == [(0, action)] and not table.redo
        assert engine.load(table.id).state.actions == table.state.actions
    finally:
        store.close()
