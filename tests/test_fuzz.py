"""A short, deterministic run of bench/fuzz.py over every target, and its regressions."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from cardtable import games
from cardtable.core.errors import BadRecord

BENCH = Path(__file__).resolve().parents[1] / "bench" / "fuzz.py"
spec = importlib.util.spec_from_file_location("fuzz", BENCH)
fuzz = importlib.util.module_from_spec(spec)
sys.modules["fuzz"] = fuzz  # dataclasses look their module up there
spec.loader.exec_module(fuzz)

CASES = {"act": 200, "deal": 200, "replay": 200, "ws": 150, "http": 100}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("target", fuzz.TARGETS)
def test_fuzz_target(target, tmp_path):
    tally = fuzz.run_target(target, CASES[target], derandomize=True, folder=str(tmp_path))
    assert tally.cases >= CASES[target] // 2
    assert tally.problems == 0, tally.examples
    assert tally.refused > 0


def test_record_options_with_non_text_keys_are_a_bad_record():
    record = games.get("slide").deal(1, 2).record()
    with pytest.raises(BadRecord, match="text keys"):
        games.replay({**record, "options": {1: 2}})


async def test_websocket_regressions(tmp_path):
    """Deep nesting was a RecursionError; an id with a lone surrogate bumped the version and
    then failed to store (the table changed although the action was refused)."""
    from cardtable.server.storage.store import Store
    from cardtable.server.tables.conn import Conn
    from cardtable.server.tables.hub import Hub
    from cardtable.server.web.socket import handle_message

    store = Store(f"sqlite:///{tmp_path}/t.sqlite")
    try:
        hub = Hub(store, bot_delay=0)
        ann, _ = store.new_player("Ann")
        table = hub.create(ann, "doublets", ["me"], {}, 5)
        conn = Conn(seat=0, player_id=ann.id)
        for raw in [
            "[" * 2000 + "]" * 2000,
            '{"type": "act", "action": "flip", "id": "\\ud800"}',
            '{"type": "ping", "id": "\\udfff"}',
            "\ud800",
        ]:
            answer = await handle_message(hub, table, conn, raw)
            assert answer["type"] == "error" and answer["code"] == "bad_message"
            assert table.version == 0 and not table.state.actions
        assert (
            await asyncio.wait_for(
                handle_message(hub, table, conn, '{"type": "act", "action": "flip", "id": "ok"}'), 5
            )
        )["type"] == "ack"
    finally:
        store.close()


def test_framework_refusals_are_typed(tmp_path):
    from fastapi.testclient import TestClient

    from cardtable.server.web.app import create_app
    from cardtable.server.web.settings import ServerSettings

    with TestClient(create_app(ServerSettings(db=f"sqlite:///{tmp_path}/h.sqlite"))) as client:
        got = client.post("/api/me", content=b"\xff{", headers={"content-type": "application/json"})
        assert got.status_code == 400 and got.json()["error"] == "bad_request"
        got = client.get("/api/nothing/here")
        assert got.status_code == 404 and got.json()["error"] == "not_found"
        # FastAPI's 422 echoed the input; an echoed Infinity could not be serialized: 500
        client.post("/api/me", json={"name": "Ann"})
        got = client.post(
            "/api/tables",
            content=b'{"game": "slide", "seats": {"a": Infinity}}',
            headers={"content-type": "application/json"},
        )
        assert got.status_code == 422 and got.json()["error"] == "bad_request"
        assert "seats" in got.json()["message"]


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("key", ["seed", "players", "self"])
def test_an_option_named_like_an_argument_is_bad_options(name, key):
    """Found by the deal target: deal(seed, players, **{"seed": 1}) was Python's TypeError
    ("got multiple values for argument 'seed'"); the same options came in through a record,
    POST /api/tables and -o on the command line. deal checks them as option names."""
    from cardtable.core.errors import BadOptions

    rules = games.get(name)
    with pytest.raises(BadOptions, match=f"no option '{key}'"):
        rules.deal(1, None, {key: 1})
    with pytest.raises(BadOptions, match="text keys"):
        rules.deal(1, None, {1: 2})
    record = rules.deal(1).record()
    with pytest.raises(BadRecord, match=f"no option '{key}'"):
        games.replay({**record, "options": {key: 1}})


def test_create_table_with_an_option_named_seed_is_400(tmp_path):
    from fastapi.testclient import TestClient

    from cardtable.server.web.app import create_app
    from cardtable.server.web.settings import ServerSettings

    with TestClient(create_app(ServerSettings(db=f"sqlite:///{tmp_path}/h.sqlite"))) as client:
        client.post("/api/me", json={"name": "Ann"})
        for key in ("seed", "players", "self"):
            got = client.post(
                "/api/tables",
                json={"game": "slide", "seats": ["me", "greedy"], "options": {key: 3}},
            )
            assert got.status_code == 400 and got.json()["error"] == "bad_request"
            assert key in got.json()["message"]


def nul_database(tmp_path) -> str:
    """PostgreSQL when the tests have one (its text refuses NUL), else SQLite."""
    from server.conftest import PG, fresh_pg_database

    return fresh_pg_database(PG) if PG else f"sqlite:///{tmp_path}/nul.sqlite"


async def test_an_action_id_or_chat_with_a_nul_is_refused(tmp_path):
    """An act whose id held "\\u0000" was stored on SQLite and, on PostgreSQL, failed to
    store after the table had moved (found by bench/fuzz.py --processes 2 --db ...)."""
    from cardtable.server.storage.store import Store
    from cardtable.server.tables.conn import Conn
    from cardtable.server.tables.hub import Hub
    from cardtable.server.web.socket import handle_message

    store = Store(nul_database(tmp_path))
    try:
        hub = Hub(store, bot_delay=0)
        ann, _ = store.new_player("Ann")
        table = hub.create(ann, "doublets", ["me"], {}, 5)
        conn = Conn(seat=0, player_id=ann.id)
        action = table.state.legal(0)[0]
        for raw in [
            json.dumps({"type": "act", "action": action, "version": 0, "id": "a\x00b"}),
            '{"type": "ping", "id": "\\u0000"}',
        ]:
            answer = await handle_message(hub, table, conn, raw)
            assert answer["type"] == "error" and answer["code"] == "bad_message", answer
            assert table.version == 0 and not table.state.actions
        answer = await handle_message(hub, table, conn, '{"type": "chat", "text": "hi\\u0000"}')
        assert answer["type"] == "error" and answer["code"] == "chat_empty", answer
        assert (
            await asyncio.wait_for(
                handle_message(
                    hub, table, conn, json.dumps({"type": "act", "action": action, "id": "ok"})
                ),
                5,
            )
        )["type"] == "ack"
    finally:
        store.close()


def test_an_address_with_a_nul_is_refused(tmp_path):
    """A table id, player id or game name with "%00" was a 500 on PostgreSQL (the lookup's
    text refused); every address holding one is now a typed 400, and a socket's handshake
    is refused."""
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from cardtable.server.web.app import create_app
    from cardtable.server.web.settings import ServerSettings

    settings = ServerSettings(db=nul_database(tmp_path), bot_delay=3600)
    with TestClient(create_app(settings)) as client:
        client.post("/api/me", json={"name": "Ann"})
        table = client.post("/api/tables", json={"game": "doublets", "seats": ["me"]}).json()
        for path in (
            "/api/tables/a%00b",
            "/api/tables/a%00b/replay?step=0",
            "/api/stats/a%00b",
            "/api/leaderboard?game=a%00b",
            f"/api/tables/{table['id']}?x=%00",
        ):
            got = client.get(path)
            assert got.status_code == 400 and got.json()["error"] == "bad_request", path
        got = client.post("/api/tables/a%00b/undo")
        assert got.status_code == 400 and got.json()["error"] == "bad_request"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/tables/a%00b"):
            pass
        assert client.get(f"/api/tables/{table['id']}").status_code == 200
