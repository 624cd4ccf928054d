"""A long game's replay and log must not stall the server (issue #23): the log's build is
linear, a replay step replays a bounded number of actions whatever the step, the log comes a
page at a time, a game ends at the length limit, and a replay asked for while another client
pings keeps the ping short. Against real servers and stores; the work is counted where it
can be (lines run, actions applied) and timed only in the test marked ``perf``."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from cardtable import games
from cardtable.server.storage import store as db
from cardtable.server.tables import engine as engines
from cardtable.server.tables import gamelog
from cardtable.server.tables.engine import TableEngine
from cardtable.server.tables.live import BOT_ACTOR
from server.conftest import Server


def write_game(
    store: db.Store,
    maker: db.Player,
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    upto: int | None = None,
) -> tuple[str, int]:
    """A table of greedy bots whose game (a greedy playout from ``seed``) is written into
    ``store`` as its log, cut after ``upto`` actions (running) or whole (over): (id, length).
    The way a long game gets into the store without playing it through the server."""
    engine = TableEngine(store, db.GroupCommit(store))
    table_id = engine.create(
        maker, game, ["greedy"] * players, options, None, lambda spec, game: None
    )
    table = store.table(table_id)
    assert table is not None
    state = games.get(game).deal(table.seed, players, options)
    state.playout(["greedy"] * players, random.Random(seed))
    log = state.actions[:upto] if upto is not None else state.actions
    rows: list[dict[str, Any]] = [
        {
            "table_id": table_id,
            "n": n,
            "seat": seat,
            "action": action,
            "client_id": None,
            "version": table.version + n + 1,
            "actor": BOT_ACTOR + "greedy",
        }
        for n, (seat, action) in enumerate(log)
    ]
    if upto is None:
        rows[-1]["finish"] = {"result": dict(state.result()), "rating": None}
    store.append_many(rows)
    return table_id, len(log)


def stored_game(
    db_url: str, game: str, players: int, options: dict[str, Any], seed: int
) -> tuple[str, int]:
    """``write_game`` into the database at ``db_url`` (a server's), by a new player."""
    store = db.Store(db_url)
    try:
        maker, _ = store.new_player("Maker")
        return write_game(store, maker, game, players, options, seed)
    finally:
        store.close()


def lines_run(work: Callable[[], Any], module: Any) -> int:
    """How many lines of ``module`` ``work()`` runs (its own functions only)."""
    count = 0
    source = module.__file__

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == source else None

    sys.settrace(calls)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def test_a_logs_build_is_linear_in_its_actions(tmp_path: Path):
    """Twice the actions, about twice the work: before, each action scanned the whole log
    (twice), so a log of 8,000 actions took seconds on the event loop."""
    store = db.Store(f"sqlite:///{tmp_path / 'log.sqlite'}")
    try:
        maker, _ = store.new_player("Maker")
        engine = TableEngine(store, db.GroupCommit(store))
        work = {}
        # (three seats: a game to 1000 is then always well over 1,200 actions, whatever the
        # table's secret deal; two seats' games ran as short as 1,472)
        for length in (300, 1200):
            table_id, n = write_game(store, maker, "slide", 3, {"target": 1000}, 3, length)
            assert n == length
            table = engine.load(table_id)
            work[length] = lines_run(lambda t=table: gamelog.entries(t), gamelog)
            # an entry per action, and a deal's scoring after its last one
            assert len([e for e in gamelog.entries(table) if not e.news]) == length
        # linear: 4x the actions, about 4x the lines (quadratic: about 16x)
        assert work[1200] < 5 * work[300], work
    finally:
        store.close()


async def test_a_log_built_a_chunk_at_a_time_reads_as_one_built_at_once(tmp_path: Path):
    """``catch_up`` (a long game's first connection) builds the same words, for every
    viewer, as ``entries`` does in one go, secrets resolved across the chunks' edges."""
    store = db.Store(f"sqlite:///{tmp_path / 'log.sqlite'}")
    try:
        maker, _ = store.new_player("Maker")
        engine = TableEngine(store, db.GroupCommit(store))
        table_id, n = write_game(store, maker, "slide", 3, {"target": 1000}, 4, 301)
        chunked, whole = engine.load(table_id), engine.load(table_id)
        await gamelog.catch_up(chunked, chunk=7)
        for viewer in (None, 0, 1, 2):
            assert gamelog.log_for(chunked, viewer) == gamelog.log_for(whole, viewer)
        assert gamelog.log_since(chunked, 0, chunked.version) == (n, [])
    finally:
        store.close()


async def test_a_finished_table_is_built_and_stepped_without_replaying_it(
    server: Server, monkeypatch
):
    """The replay of a Slide of thousands of actions (six greedy seats, target 1000) is
    built once; each step after that applies fewer than SNAPSHOT_EVERY actions, wherever
    it is; the log comes a page at a time (at most LOG_PAGE_MAX) with its total. Before,
    each step replayed the game from the start."""
    from cardtable.games.slide import SlideState
    from cardtable.server.api.messages import ReplayStep
    from cardtable.server.web.replays import LOG_PAGE_MAX, SNAPSHOT_EVERY

    table_id, steps = stored_game(server.db_url, "slide", 6, {"target": 1000}, 126)
    assert steps > 5000  # (the deal is the server's: about 7,000 to 9,500 actions)
    applied = 0
    apply = SlideState._apply

    def counting(self: SlideState, seat: int, action: str) -> None:
        nonlocal applied
        applied += 1
        apply(self, seat, action)

    monkeypatch.setattr(SlideState, "_apply", counting)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:  # nobody's
        url = f"/api/tables/{table_id}/replay"
        first = (await http.get(url, params={"step": 0, "log": 1, "log_limit": 100})).json()
        assert first["log_total"] == steps and len(first["log"]) == 100
        assert first["log_offset"] == 0 and first["log"][0]["n"] == 0
        words = first["log"]
        for step in (steps, steps - 1, steps // 2 + 7, 1, steps - SNAPSHOT_EVERY - 1):
            applied = 0
            answer = (
                await http.get(url, params={"step": step, "log": 1, "log_offset": step - 1})
            ).json()
            assert applied < SNAPSHOT_EVERY, (step, applied)
            assert answer["step"] == step and answer["steps"] == steps
            assert answer["log"][0]["n"] == step - 1 and answer["log_offset"] == step - 1
            assert answer["action"]["text"] == answer["log"][0]["text"]
            ReplayStep.model_validate(answer)  # (encoded by the route, not by FastAPI)
        # the same words as the first page's, page by page
        again = (await http.get(url, params={"log": 1})).json()  # the most, by default
        moves = [e for e in again["log"] if not e.get("news")]
        assert again["log"][:100] == words and len(moves) == LOG_PAGE_MAX
        # (and the scoring of the deals that ended among them)
        assert [e["n"] for e in again["log"] if e.get("news")] == [
            n for n in range(LOG_PAGE_MAX) if (n + 1) % (2 * 16 * 6) == 0
        ]
        for limit in (0, LOG_PAGE_MAX + 1):
            refused = await http.get(url, params={"log": 1, "log_limit": limit})
            assert refused.status_code == 400 and refused.json()["error"] == "bad_request"
        without = (await http.get(url, params={"step": 5})).json()
        assert without["log"] is None and without["log_total"] == steps
        # the record comes from the same replay: nothing is played again
        applied = 0
        record = (await http.get(f"/api/tables/{table_id}/record")).json()
        assert len(record["actions"]) == steps and record["played_by"] == first["played_by"]
        assert applied == 0


async def test_a_new_connection_to_a_long_game_gets_the_last_of_its_log(server: Server, people):
    """A long game's table sends a new connection the last 500 entries of its log, not the
    megabyte of the whole (the replay pages the rest)."""
    from cardtable.server.tables.gamelog import LOG_TAIL

    table_id, steps = stored_game(server.db_url, "slide", 2, {"target": 1000}, 5)
    assert steps > LOG_TAIL
    sock = await people("Eve").connect(table_id, token=False)
    state = await sock.until(lambda s: True)
    first = sock.messages[0]
    moves = [e for e in first["log"] if not e.get("news")]
    assert first["log_from"] == steps - LOG_TAIL and len(moves) == LOG_TAIL
    assert [e["n"] for e in moves] == list(range(steps - LOG_TAIL, steps))
    assert state["log"][-1]["n"] == state["last"]["n"] == steps - 1
    await sock.close()


def test_the_websocket_schema_is_built_once(server: Server, monkeypatch):
    """GET /api/ws-schema answers the same bytes without building the schemas again (13 ms
    of the event loop per request before)."""
    from cardtable.server.web.routes import pages

    built = 0
    build = pages.websocket_schema

    def counting() -> dict[str, Any]:
        nonlocal built
        built += 1
        return build()

    monkeypatch.setattr(pages, "websocket_schema", counting)
    bodies = [httpx.get(f"{server.base}/api/ws-schema").content for _ in range(3)]
    assert bodies[0] == bodies[1] == bodies[2] and set(json.loads(bodies[0])) == {
        "client",
        "server",
    }
    assert built <= 1


async def test_a_game_ends_at_the_length_limit(tmp_path: Path, monkeypatch):
    """The action that reaches MAX_ACTIONS closes the table as too_long, in the same
    transaction: nobody won, not rated, and nothing more is played. (The limit is lowered
    to 40 here: the game is The Game's endless signals.)"""
    monkeypatch.setattr(engines, "MAX_ACTIONS", 40, raising=False)
    store = db.Store(f"sqlite:///{tmp_path / 'cap.sqlite'}")
    try:
        engine = TableEngine(store, db.GroupCommit(store))
        ann, _ = store.new_player("Ann")
        bob, _ = store.new_player("Bob")
        table = engine.load(
            engine.create(ann, "the-game", ["me", "open"], {}, None, lambda spec, game: None)
        )
        engine.join(table, bob, None)
        for n in range(40):
            said = ("avoid", "small")[n // 2 % 2]
            answer = await engine.act(table, n % 2, f"signal up1 {said}", None, f"s{n}")
            assert answer["type"] == "ack", (n, answer)
        assert table.status == "over" and table.ended == "too_long"
        late = await engine.act(table, 0, "signal up1 good", None, "late")
        assert late["code"] == "game_over"
        row = store.table(table.id)
        assert row is not None and row.status == "over" and row.ended == "too_long"
        assert row.result is not None and row.result["winners"] == []
        assert row.result["ended"] == "too_long" and len(store.actions(table.id)) == 40
        assert engine.load(table.id).status == "over"
    finally:
        store.close()


async def pings_while(base: str, port: int, work: Callable[[], Any]) -> list[float]:
    """Another person's websocket pings (seconds each) while ``work()`` runs."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        me = await http.post("/api/me", json={"name": "Victim"})
        token = me.cookies["cardtable_token"]
        table = await http.post(
            "/api/tables",
            json={"game": "doublets", "seats": ["me"]},
            headers={"x-cardtable-token": token},
        )
    pings: list[float] = []
    url = f"ws://127.0.0.1:{port}/ws/tables/{table.json()['id']}?token={token}"
    async with websockets.connect(url) as ws:
        await ws.recv()
        job = asyncio.ensure_future(work())
        n = 0
        while not job.done() or n < 5:
            n += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": f"p{n}"}))
            while json.loads(await ws.recv()).get("id") != f"p{n}":
                pass
            pings.append(time.perf_counter() - sent)
            await asyncio.sleep(0.02)
        await job
    return pings


@pytest.mark.perf
@pytest.mark.own_process  # (a server in this process would share its GIL with the clients)
async def test_a_long_replay_asked_by_four_clients_keeps_a_ping_short(server: Server):
    """Four clients without a player ask for random steps of a Slide of thousands of
    actions (six greedy seats to 1000) with the log, from its first (cold) request on;
    another person's pings stay short. Before, the first request held the loop for
    seconds."""
    table_id, steps = stored_game(server.db_url, "slide", 6, {"target": 1000}, 126)

    async def loops() -> None:
        async def one(k: int) -> None:
            rng = random.Random(k)
            async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
                for _ in range(15):
                    step = rng.randrange(steps + 1)
                    answer = await http.get(
                        f"/api/tables/{table_id}/replay",
                        params={"step": step, "log": 1, "log_offset": step},
                    )
                    assert answer.status_code == 200

        await asyncio.gather(*(one(k) for k in range(4)))

    pings = sorted(await pings_while(server.base, server.port, loops))
    # a held loop shows in every ping after it, for seconds; one late ping on a loaded
    # machine (the clients share its two cores) is the scheduler's, not the server's
    assert pings[int(len(pings) * 0.95)] < 0.25 and pings[-1] < 1, pings[-5:]


async def test_a_closed_tables_replay_ends_saying_how_it_closed(people):
    """The last step of a table closed before its game's end carries the words its results
    panel showed (#25: the replay had no end then): how it closed, first."""
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    sock = await ann.connect(table["id"])
    state = await sock.until(lambda s: bool(s["legal"]))
    assert (await sock.act(state["legal"][0]))["type"] == "ack"
    await sock.close()
    assert ann.post(f"/api/tables/{table['id']}/leave")["outcome"] == "closed"
    first = ann.http.get(f"/api/tables/{table['id']}/replay", params={"step": 0}).json()
    last = ann.http.get(f"/api/tables/{table['id']}/replay", params={"step": first["steps"]}).json()
    assert first["ending"] is None
    assert last["ending"]["lines"][0] == "Abandoned (counted as lost)", last["ending"]
    assert last["ending"]["breakdown"] is None and last["ending"]["verdict"] is None
