"""The broadcaster (``server/tables/broadcast.py``): one state message per kind of viewer.

Connections that see the same (the same seat, the same person, sent the same version before)
get the very same message, encoded once; every other connection its own, and each still
exactly what ``view(seat)`` allows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
