"""The broadcaster (``server/tables/broadcast.py``): one state message per kind of viewer.

Connections that see the same (the same seat, the same person, sent the same version before,
asking for the move labels or not) get the very same message, encoded once; every other
connection its own, and each still exactly what ``view(seat)`` allows. A socket opened with
``labels=0`` gets no move labels, and everything else alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import websockets

from cardtable.bots import make_bot
from cardtable.server.api.messages import Shared
from cardtable.server.storage import store as db
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.hub import Hub
from cardtable.server.web.socket import encode


@pytest.fixture
async def hub(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 's.sqlite'}")
    hub = Hub(store, bot_delay=0)
    yield hub
    await hub.close()
    store.close()


async def table_of_two(hub: Hub, seed: int):
    """A running table of The Game: (the table, Ann at seat 1, Bob at seat 2)."""
    ann, bob = (hub.store.new_player(name)[0] for name in ("ann", "bob"))
    table = hub.create(ann, "the-game", ["me", "open"], {}, seed=seed)
    await hub.join(table, bob, 1)
    return table, ann, bob


async def greedy_move(hub: Hub, table) -> None:
    seat = table.state.to_act()[0]
    view, legal = table.state.view(seat), table.state.legal(seat)
    answer = await hub.act(table, seat, make_bot("greedy", "the-game").choose(view, legal))
    assert answer["type"] == "ack"


def sent(conn: Conn) -> list:
    out = []
    while not conn.outbox.empty():
        out.append(conn.outbox.get_nowait())
    return out


async def test_connections_that_see_the_same_share_one_message_encoded_once(hub):
    table, ann, bob = await table_of_two(hub, seed=7)
    watchers = [Conn(seat=None, player_id=None) for _ in range(5)]
    anns = [Conn(seat=0, player_id=ann.id) for _ in range(2)]
    bobs = [Conn(seat=1, player_id=bob.id)]
    signed_in_watcher = Conn(seat=None, player_id=bob.id)  # (sees "you" on seat 2)
    conns = [*watchers, *anns, *bobs, signed_in_watcher]
    for conn in conns:
        await hub.connect(table, conn)
        sent(conn)

    await greedy_move(hub, table)
    watched = [m for c in watchers for m in sent(c)]
    assert len(watched) == 5 and all(m is watched[0] for m in watched)  # one for all
    states = {c: sent(c) for c in [*anns, *bobs, signed_in_watcher]}
    ann_states = [s for c in anns for s in states[c]]
    assert len(ann_states) == 2 and ann_states[0] is ann_states[1]  # one message, twice
    assert isinstance(ann_states[0], Shared)
    assert encode(ann_states[0]) is encode(ann_states[1])  # encoded once
    # the others each their own: another seat, another person
    mine = {id(states[bobs[0]][0]), id(ann_states[0]), id(states[signed_in_watcher][0])}
    assert len(mine | {id(watched[0])}) == 4
    for conn, (message,) in [(bobs[0], states[bobs[0]]), (anns[0], ann_states[:1])]:
        assert message["view"] == table.state.view(conn.seat)
        assert json.loads(encode(message))["legal"] == table.state.legal(conn.seat)
    assert states[signed_in_watcher][0]["seat"] is None
    assert [s["you"] for s in states[signed_in_watcher][0]["table"]["seats"]] == [False, True]


async def test_a_connection_behind_the_others_gets_the_log_it_lacks(hub):
    # (the kind of viewer includes the version it was last sent: its log delta differs)
    table, _ann, _bob = await table_of_two(hub, seed=3)
    watchers = [Conn(seat=None, player_id=None) for _ in range(3)]
    for conn in watchers:
        await hub.connect(table, conn)
    for _ in range(3):
        await greedy_move(hub, table)
    for conn in watchers:
        sent(conn)
    watchers[2].log_version = table.version - 2  # it missed two states
    await greedy_move(hub, table)
    (first,), (second,), (behind,) = (sent(c) for c in watchers)
    assert first is second and behind is not first
    assert behind["log_from"] < first["log_from"] == len(table.state.actions) - 1
    assert behind["log"][-1] == first["log"][-1]
    assert all(c.log_version == table.version for c in watchers)


def without_labels(message: dict) -> dict:
    return {k: v for k, v in message.items() if k not in ("labels", "labels_msg")}


async def test_a_connection_that_asks_no_labels_gets_none_and_shares_no_message(hub):
    table, ann, _bob = await table_of_two(hub, seed=5)
    labelled, bare = Conn(seat=0, player_id=ann.id), Conn(seat=0, player_id=ann.id, labels=False)
    for conn in (labelled, bare):
        await hub.connect(table, conn)
        sent(conn)
    for _ in range(2):
        await greedy_move(hub, table)
        (full,), (short,) = states(labelled), states(bare)
        assert full is not short and short["labels"] == short["labels_msg"] == []
        assert len(full["labels"]) == len(full["legal"]) == len(full["labels_msg"]) > 0
        assert without_labels(full) == without_labels(short)


async def two_sockets_of_ann(people, query: str):
    """A running table of The Game with Ann and Bob connected, and Ann's two sockets: one
    asking nothing, one opened with ``query``: (Ann, the table, the sockets, Bob's)."""
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("the-game", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    # Bob's socket open all along (the test keeps it): no countdown to his seat's hand-over,
    # which would change the table info as the time passes
    bobs = await bob.connect(table["id"])
    await bobs.recv()
    asked = await ann.connect(table["id"]), await ann.connect(table["id"], query)
    return ann, table, *asked, bobs


async def refused(ann, table, query: str) -> dict:
    """What a socket opened with ``query`` is told; it is closed then with 4400."""
    url = f"ws://127.0.0.1:{ann.server.port}/ws/tables/{table['id']}?{query}"
    async with websockets.connect(url) as ws:
        said = json.loads(await ws.recv())
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    return said


async def test_a_socket_opened_with_labels_0_gets_states_without_labels(people):
    ann, table, labelled, bare, _bobs = await two_sockets_of_ann(people, "labels=0")
    first = await labelled.until(lambda s: bool(s["legal"]))
    short = await bare.until(lambda s: s["version"] == first["version"])
    assert short["labels"] == short["labels_msg"] == [] and len(first["labels"]) > 0
    assert without_labels(short) == without_labels(first)
    assert (await labelled.act(first["legal"][0]))["type"] == "ack"
    after = await labelled.until(lambda s: s["version"] > first["version"])
    short = await bare.until(lambda s: s["version"] == after["version"])
    assert short["labels"] == [] and without_labels(short) == without_labels(after)
    said = await refused(ann, table, "labels=yes")  # only 0 or 1
    assert said["code"] == "bad_request" and "labels" in said["message"]


def states(conn: Conn) -> list:
    """The state messages sent (a presence event may come between them on a slow machine)."""
    return [m for m in sent(conn) if m["type"] == "state"]


def with_table(message: dict, last: dict) -> dict:
    """A state as a ``table=changed`` client keeps it: without table info, the last one."""
    if "table" in message:
        return dict(message)
    return {**message, "table": {**last["table"], "version": message["version"]}}


async def test_the_table_info_goes_to_who_asks_so_only_when_it_changed(hub):
    table, ann, bob = await table_of_two(hub, seed=9)
    bobs = Conn(seat=1, player_id=bob.id)  # (no countdown to his seat's hand-over, which
    await hub.connect(table, bobs)  # changes the table info as the time passes)
    full, changed = Conn(seat=0, player_id=ann.id), Conn(seat=0, player_id=ann.id)
    changed.table_changes_only = True
    for conn in (full, changed):
        await hub.connect(table, conn)
    (first,), (kept,) = states(full), states(changed)
    assert "table" in kept and without_labels(kept) == without_labels(first)
    for _ in range(3):
        await greedy_move(hub, table)
        (whole,), (short,) = states(full), states(changed)
        assert "table" not in short and short["version"] == whole["version"]
        kept = with_table(short, kept)
        assert kept == whole
    # Bob's socket closes: his seat reads "not connected" in the next state's table info
    await hub.disconnect(table, bobs)
    await greedy_move(hub, table)
    (whole,), (short,) = states(full), states(changed)
    assert short["table"] == whole["table"] and not whole["table"]["seats"][1]["connected"]


async def test_a_socket_opened_with_table_changed_reads_the_same_game(people):
    ann, table, full, short, _bobs = await two_sockets_of_ann(people, "table=changed")
    for _ in range(4):
        state = await full.until(lambda s: bool(s["legal"]) and 0 in s["view"]["to_act"])
        kept = await short.until(lambda s, v=state["version"]: s["version"] == v)
        assert kept == state  # (the socket's state keeps the last table info)
        assert (await full.act(state["legal"][0]))["type"] == "ack"
    assert any("table" not in m for m in short.messages if m["type"] == "state")
    said = await refused(ann, table, "table=some")  # only all or changed
    assert said["code"] == "bad_request" and "table" in said["message"]
