"""One change, one transaction: a server killed right after any commit leaves every table
consistent (join, leave, resign, hand to bot, clock timeout, taking a seat back, undo, redo,
restart, new deal, chat settings, a game's end, a close); tables an older server left
half-changed are mended on load; resigning twice stores one resignation; a resent client
action id is answered from the stored log, after a restart and after any number of other ids.

The kills are real: ``CARDTABLE_FAULT=<point>`` makes the server SIGKILL itself right after
the commit named by ``<point>`` (``store.fault_point``; docs/reliability.md, "One change, one
transaction").
"""

from __future__ import annotations

import asyncio
import json
import os
import signal

import httpx
import pytest

from cardtable import games
from cardtable.bots import make_bot
from cardtable.server.storage import store as db
from helpers import play_with_greedy, stuck

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="SIGKILL"),
    pytest.mark.own_process,
]  # killed, restarted or timed: a process of its own


def restart(server, monkeypatch: pytest.MonkeyPatch, fault: str | None = None) -> None:
    """Stop the server (if it still runs) and start it again, with ``fault`` armed or not."""
    server.kill()
    if fault:
        monkeypatch.setenv("CARDTABLE_FAULT", fault)
    else:
        monkeypatch.delenv("CARDTABLE_FAULT", raising=False)
    server.start()


def killed_itself(server) -> None:
    assert server.proc.wait(timeout=60) == -signal.SIGKILL


def unfinished_of(server, player_id: str) -> list[str]:
    """The tables that count against the player's limit of unfinished tables."""
    store = db.Store(server.db_url)
    try:
        return [
            t.id
            for t in store.tables(["open", "running"], limit=10_000)
            if t.created_by == player_id
        ]
    finally:
        store.close()


def assert_consistent(url: str) -> None:
    """Every table's rows tell one story: over with a finish time and a result (and only
    then); an open table has a free seat; a resignation is stored once, and while its game
    runs its seat is a bot's; a seat the clock took is a bot's, and (a competitive game)
    counted as resigned until its person is back; never more actions than changes."""
    store = db.Store(url)
    try:
        for t in store.tables(["open", "running", "over"], limit=10_000):
            seats = store.seats(t.id)
            entries = t.resigned or []
            given_up = [(r["seat"], r["player_id"]) for r in entries]
            assert len(given_up) == len(set(given_up)), (t.id, entries)
            assert (t.status == "over") == (t.finished_at is not None), t.id
            assert t.status != "over" or t.result is not None, t.id
            if t.status == "open":
                assert any(not s.player_id and not s.bot for s in seats), t.id
            assert t.version >= len(store.actions(t.id)), t.id
            if t.status != "running":
                continue
            for seat, _player in given_up:
                assert seats[seat].bot and not seats[seat].player_id, (t.id, entries)
            competitive = not games.get(t.game).cooperative
            for seat, player in enumerate((t.clock or {}).get("away") or []):
                if player:
                    assert seats[seat].bot and not seats[seat].player_id, (t.id, seat)
                    assert not competitive or (seat, player) in given_up, (t.id, entries)
            away = [(r["seat"], r["player_id"]) for r in entries if r.get("away")]
            assert all(t.clock["away"][s] == p for s, p in away), (t.id, entries)
    finally:
        store.close()


def resigned_of(url: str, table_id: str) -> list[dict]:
    store = db.Store(url)
    try:
        return store.table(table_id).resigned or []
    finally:
        store.close()


def games_rated(person, game: str) -> dict[str, int]:
    board = person.http.get("/api/leaderboard", params={"game": game}).json()
    return {r["name"]: r["games"] for r in board}


async def first_action_acked(person, table_id: str) -> None:
    sock = await person.connect(table_id)
    state = await sock.until(lambda s: s["legal"] and s["seat"] in s["view"]["to_act"])
    answer = await sock.act(make_bot("greedy", "slide").choose(state["view"], state["legal"]))
    assert answer["type"] == "ack", answer
    await sock.close()


# -- (a) killed right after each commit ------------------------------------------------------


async def test_killed_after_the_last_action_the_game_is_over_rated_once(
    server, people, monkeypatch
):
    ann = people("Ann")
    restart(server, monkeypatch, "finish")
    table = ann.new_table("slide", ["greedy", "random"])  # bots play it to the end at once
    killed_itself(server)  # right after the commit of the game's last action
    restart(server, monkeypatch)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "over"
    record = ann.http.get(f"/api/tables/{table['id']}/record")
    assert record.status_code == 200 and games.replay(record.json()).over
    assert games_rated(ann, "slide") == {"Greedy bot": 1, "Random bot": 1}
    assert unfinished_of(server, ann.id) == []
    assert_consistent(server.db_url)
    restart(server, monkeypatch)  # and it stays so
    assert games_rated(ann, "slide") == {"Greedy bot": 1, "Random bot": 1}


@pytest.mark.parametrize("fault", ["join", "hand-to-bot"])
async def test_killed_after_the_last_seat_is_taken_the_table_runs(
    server, people, monkeypatch, fault
):
    ann, bob = people("Ann"), people("Bob")
    restart(server, monkeypatch, fault)
    table = ann.new_table("slide", ["me", "open"])
    with pytest.raises(httpx.HTTPError):  # the server dies answering
        if fault == "join":
            bob.http.post(f"/api/tables/{table['id']}/join", json={})
        else:
            ann.http.post(f"/api/tables/{table['id']}/seats/1/bot", json={"bot": "greedy"})
    killed_itself(server)
    restart(server, monkeypatch)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "running" and all(s["taken"] for s in info["seats"])
    assert_consistent(server.db_url)
    await first_action_acked(ann, table["id"])
    if fault == "join":
        await first_action_acked(bob, table["id"])


async def test_killed_after_a_person_leaves_an_open_table_the_seat_is_free(
    server, people, monkeypatch
):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    restart(server, monkeypatch, "leave")
    with pytest.raises(httpx.HTTPError):
        bob.http.post(f"/api/tables/{table['id']}/leave", json={})
    killed_itself(server)
    restart(server, monkeypatch)
    assert_consistent(server.db_url)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "open" and not info["seats"][1]["taken"]
    assert bob.post(f"/api/tables/{table['id']}/join")["seat"] == 1  # and taken again


@pytest.mark.parametrize("how", ["resign", "leave"])
async def test_killed_after_a_resignation_the_seat_is_the_bots_with_one_entry(
    server, people, monkeypatch, how
):
    """Leaving a started competitive game is resigning: the resignation and the seat's
    fallback bot are one commit. Killed right after it, the seat is the bot's, the
    resignation stored once, and asking again changes nothing."""
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    restart(server, monkeypatch, "resign")
    with pytest.raises(httpx.HTTPError):
        bob.http.post(f"/api/tables/{table['id']}/{how}", json={})
    killed_itself(server)
    restart(server, monkeypatch)
    assert_consistent(server.db_url)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "running" and info["seats"][1]["bot"] == "greedy"
    assert [r["player_id"] for r in resigned_of(server.db_url, table["id"])] == [bob.id]
    again = bob.post(f"/api/tables/{table['id']}/resign")
    assert again["outcome"] == "bot" and again["table"]["seats"][1]["bot"] == "greedy"
    assert [r["player_id"] for r in resigned_of(server.db_url, table["id"])] == [bob.id]
    await first_action_acked(ann, table["id"])


async def test_resigning_twice_is_answered_twice_and_stored_once(server, people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    first = bob.post(f"/api/tables/{table['id']}/resign")
    second = bob.post(f"/api/tables/{table['id']}/resign")  # a resend: same answer
    assert first["outcome"] == second["outcome"] == "bot"
    assert [r["player_id"] for r in resigned_of(server.db_url, table["id"])] == [bob.id]
    assert_consistent(server.db_url)


def clocked(server, monkeypatch, fault: str | None) -> None:
    """Restart with clocks as short as a second, and bots slow enough (5 s a move) that a
    table of two people the clock replaced is still running when one comes back."""
    server.args = ["--min-clock", "1", "--bot-delay", "5"]
    restart(server, monkeypatch, fault)


async def test_killed_after_a_timeout_and_after_taking_the_seat_back(server, people, monkeypatch):
    clocked(server, monkeypatch, "timeout")
    ann, bob = people("Ann"), people("Bob")
    table = ann.post(
        "/api/tables",
        {"game": "slide", "seats": ["me", "open"], "clock": {"mode": "move", "seconds": 5}},
    )
    bob.post(f"/api/tables/{table['id']}/join")
    killed_itself(server)  # neither moved: right after the first seat's timeout commit
    clocked(server, monkeypatch, "reclaim")
    assert_consistent(server.db_url)  # (and the other seat's timeout comes now)
    for _ in range(100):
        info = ann.http.get(f"/api/tables/{table['id']}").json()
        if info["seats"][0]["bot"] and info["seats"][1]["bot"]:
            break
        await asyncio.sleep(0.1)
    assert info["status"] == "running" and info["seats"][0]["bot"] == "greedy", info
    assert {r["player_id"] for r in resigned_of(server.db_url, table["id"])} == {ann.id, bob.id}
    with pytest.raises(httpx.HTTPError):  # Ann comes back: the server dies answering
        ann.http.post(f"/api/tables/{table['id']}/join", json={"seat": 0})
    killed_itself(server)
    clocked(server, monkeypatch, None)
    assert_consistent(server.db_url)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["seats"][0]["name"] == "Ann" and not info["seats"][0]["bot"], info
    assert [r["player_id"] for r in resigned_of(server.db_url, table["id"])] == [bob.id]


async def test_killed_after_undo_and_redo_of_a_solitaire(server, people, monkeypatch):
    # (a finished game is never undone since #11: the undo and redo here are mid-game)
    from server.test_seats import play_greedy

    ann = people("Ann")
    restart(server, monkeypatch, "undo")
    table = ann.new_table("doublets", ["me"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    await play_greedy(sock, 3)
    played = sock.state
    await sock.close()
    with pytest.raises(httpx.HTTPError):
        ann.http.post(f"/api/tables/{table['id']}/undo", json={})
    killed_itself(server)
    restart(server, monkeypatch, "redo")
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "running" and info["can_redo"]  # the last action is undone
    assert info["version"] == played["version"] + 1
    assert_consistent(server.db_url)
    with pytest.raises(httpx.HTTPError):
        ann.http.post(f"/api/tables/{table['id']}/redo", json={})
    killed_itself(server)
    restart(server, monkeypatch)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "running" and not info["can_redo"]
    assert info["version"] == played["version"] + 2
    assert_consistent(server.db_url)
    sock = await ann.connect(table["id"])
    final = await play_with_greedy(sock, "doublets")
    if stuck(final):  # no move left, held open for undo: leaving finishes it
        ann.post(f"/api/tables/{table['id']}/leave")
        final = await sock.until(lambda s: s["table"]["status"] == "over")
    await sock.close()
    assert final["table"]["status"] == "over" and not final["table"]["can_undo"]
    assert ann.http.get(f"/api/tables/{table['id']}/record").status_code == 200
    assert unfinished_of(server, ann.id) == []


@pytest.mark.parametrize("how", ["restart", "new deal"])
async def test_killed_after_a_restart_or_new_deal_the_old_deal_and_the_new_go_together(
    server, people, monkeypatch, how
):
    """The old deal's close (abandoned) and the new table are one commit: killed right after
    it, both are there; there is never a lost deal without its new one."""
    from server.test_seats import play_greedy

    ann = people("Ann")
    old = ann.new_table("doublets", ["me"])
    sock = await ann.connect(old["id"])
    await sock.until(lambda s: True)
    await play_greedy(sock, 3)
    await sock.close()
    restart(server, monkeypatch, "replace")
    with pytest.raises(httpx.HTTPError):
        if how == "restart":
            ann.http.post(f"/api/tables/{old['id']}/restart", json={})
        else:
            ann.http.post(
                "/api/tables", json={"game": "doublets", "seats": ["me"], "replaces": old["id"]}
            )
    killed_itself(server)
    restart(server, monkeypatch)
    assert_consistent(server.db_url)
    info = ann.http.get(f"/api/tables/{old['id']}").json()
    assert info["status"] == "over" and info["ended"] == "abandoned"
    (new,) = unfinished_of(server, ann.id)
    assert new != old["id"]
    assert ann.http.get("/api/stats/doublets").json()["played"] == 1  # the lost deal, once


async def test_killed_after_changing_the_chat_settings(server, people, monkeypatch):
    ann = people("Ann")
    table = ann.new_table("the-game", ["me", "greedy"])  # fixed phrases only, at first
    restart(server, monkeypatch, "chat")
    with pytest.raises(httpx.HTTPError):
        ann.http.post(f"/api/tables/{table['id']}/chat", json={"free": True})
    killed_itself(server)
    restart(server, monkeypatch)
    store = db.Store(server.db_url)
    try:
        settings = store.chat_settings(table["id"])
        assert settings is not None and settings.free and not settings.spectators
    finally:
        store.close()
    assert_consistent(server.db_url)


async def test_killed_after_closing_a_table_before_its_end(server, people, monkeypatch):
    """A resignation against a bot closes the table with its result and ratings in one
    commit: killed right after it, the table is over, rated once, and not unfinished."""
    ann = people("Ann")
    restart(server, monkeypatch, "close")
    table = ann.new_table("slide", ["me", "greedy"])
    with pytest.raises(httpx.HTTPError):
        ann.http.post(f"/api/tables/{table['id']}/resign", json={})
    killed_itself(server)
    restart(server, monkeypatch)
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "over" and info["ended"] == "resigned"
    assert games_rated(ann, "slide") == {"Ann": 1, "Greedy bot": 1}
    assert unfinished_of(server, ann.id) == []
    assert_consistent(server.db_url)


# -- (b) what an older server left half-written ------------------------------------------------


def write_broken_tables(url: str, ann: str, bob: str) -> tuple[str, str]:
    """A Slide table ``running`` whose logged actions finish the game, and an ``open`` one
    with every seat taken: what a server killed between two commits left behind."""
    store = db.Store(url)
    try:
        store.new_table(
            db.Table(
                id="overbutrun",
                game="slide",
                seed=7,
                players=2,
                options={},
                status="running",
                created_by=ann,
                redo=[],
                version=0,
            ),
            [
                db.Seat(table_id="overbutrun", seat=0, player_id=ann),
                db.Seat(table_id="overbutrun", seat=1, bot="greedy"),
            ],
        )
        state = games.get("slide").deal(7, 2)
        bots = [make_bot("greedy", "slide", seat) for seat in range(2)]
        while not state.over:
            for seat in state.to_act():
                n = len(state.actions)
                state.act(seat, bots[seat].choose(state.view(seat), state.legal(seat)))
                store.append("overbutrun", n, seat, state.actions[-1][1], n + 1)
        store.new_table(
            db.Table(
                id="fullbutopen",
                game="slide",
                seed=8,
                players=2,
                options={},
                status="open",
                created_by=ann,
                redo=[],
                version=1,
            ),
            [
                db.Seat(table_id="fullbutopen", seat=0, player_id=ann),
                db.Seat(table_id="fullbutopen", seat=1, player_id=bob),
            ],
        )
    finally:
        store.close()
    return "overbutrun", "fullbutopen"


async def test_an_older_database_is_reconciled_on_load_once(server, people, monkeypatch):
    ann, bob = people("Ann"), people("Bob")
    server.kill()
    over, full = write_broken_tables(server.db_url, ann.id, bob.id)
    server.start()
    info = ann.http.get(f"/api/tables/{over}").json()
    assert info["status"] == "over"
    assert ann.http.get(f"/api/tables/{over}/record").status_code == 200
    assert games_rated(ann, "slide") == {"Ann": 1, "Greedy bot": 1}
    assert ann.http.get(f"/api/tables/{full}").json()["status"] == "running"
    await first_action_acked(ann, full)
    await first_action_acked(bob, full)
    assert unfinished_of(server, ann.id) == [full]
    restart(server, monkeypatch)  # reconciling again changes nothing
    assert games_rated(ann, "slide") == {"Ann": 1, "Greedy bot": 1}
    assert ann.http.get(f"/api/tables/{full}").json()["status"] == "running"


async def test_a_resignation_stored_apart_from_its_seat_is_completed_on_load(server, people):
    """What a server killed between the two commits of a resignation left (#23): the
    resignation stored (twice: Bob resigned again), Bob still seated and able to act."""
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    server.kill()
    store = db.Store(server.db_url)
    try:
        entry = {"seat": 1, "player_id": bob.id, "name": "Bob"}
        with store.engine.begin() as conn:
            conn.execute(
                db.TABLES.update()
                .where(db.TABLES.c.id == table["id"])
                .values(resigned=[entry, entry])
            )
    finally:
        store.close()
    server.start()
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "running" and info["seats"][1]["bot"] == "greedy", info
    assert resigned_of(server.db_url, table["id"]) == [entry]
    assert_consistent(server.db_url)
    sock = await bob.connect(table["id"])
    state = await sock.until(lambda s: True)
    assert state["seat"] is None  # Bob watches: he resigned
    await sock.close()
    assert bob.post(f"/api/tables/{table['id']}/resign")["outcome"] == "bot"
    await first_action_acked(ann, table["id"])
    server.restart()  # mended once: nothing more to do
    assert resigned_of(server.db_url, table["id"]) == [entry]
    assert ann.http.get(f"/api/tables/{table['id']}").json()["seats"][1]["bot"] == "greedy"


# -- (c) a resent client action id -------------------------------------------------------------


async def act_without_version(sock, action: str, client_id: str) -> dict:
    """Send an action with an id but no version; the answer to that id (waits when told)."""
    while True:
        await sock.ws.send(json.dumps({"type": "act", "action": action, "id": client_id}))
        while True:
            message = await sock.recv()
            if message["type"] in ("ack", "error") and message.get("id") == client_id:
                break
        if message.get("code") != "rate_limited":
            return message
        await asyncio.sleep(message["retry_after"])


def stored_ids(url: str, table_id: str) -> list[str | None]:
    store = db.Store(url)
    try:
        return [a.client_id for a in store.actions(table_id)]
    finally:
        store.close()


async def test_a_resent_id_is_applied_once_after_300_other_ids_and_a_restart(
    server, people, monkeypatch
):
    ann, bob, carl = people("Ann"), people("Bob"), people("Carl")
    table = ann.new_table("the-game", ["me", "open", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    carl.post(f"/api/tables/{table['id']}/join")
    socks = [await p.connect(table["id"]) for p in (ann, bob, carl)]
    for sock in socks:
        await sock.until(lambda s: s["table"]["status"] == "running")
    first = await act_without_version(socks[1], "signal up1 good", "first")
    assert first["type"] == "ack", first

    async def talk(sock, who: str) -> None:  # signals: legal at any time, for every seat
        for i in range(100):
            signal_ = "signal down1 small" if i % 2 else "signal down1 good"
            assert (await act_without_version(sock, signal_, f"{who}-{i}"))["type"] == "ack"

    await asyncio.gather(*(talk(s, w) for s, w in zip(socks, "abc", strict=True)))
    # so the first action is legal again: sent twice, it would be applied twice
    assert (await act_without_version(socks[1], "signal up1 clear", "clear"))["type"] == "ack"
    assert await act_without_version(socks[1], "signal up1 good", "first") == first
    server.restart()
    sock = await bob.connect(table["id"])
    await sock.until(lambda s: True)
    assert await act_without_version(sock, "signal up1 good", "first") == first
    ids = stored_ids(server.db_url, table["id"])
    assert ids.count("first") == 1 and len(ids) == 302
    await sock.close()


async def test_a_resent_id_is_answered_after_a_restart(server, people):
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: s["legal"])
    first = await act_without_version(sock, "flip", "flip-1")
    assert first["type"] == "ack", first
    server.restart()
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: s["legal"])
    assert await act_without_version(sock, "flip", "flip-1") == first  # not a second flip
    assert stored_ids(server.db_url, table["id"]) == ["flip-1"]
    await sock.close()


# -- the store: a game's end goes with its action, all or nothing ----------------------------


def test_games_ending_in_one_batch_all_count_and_a_failed_batch_ends_none(tmp_path):
    from sqlalchemy.exc import IntegrityError

    from cardtable.server.storage.ratings import rating_of

    store = db.Store(f"sqlite:///{tmp_path / 't.sqlite'}")
    try:
        ann, _ = store.new_player("Ann")
        for tid in ("t1", "t2"):
            store.new_table(
                db.Table(
                    id=tid,
                    game="slide",
                    seed=1,
                    players=2,
                    options={},
                    status="running",
                    created_by=ann.id,
                    redo=[],
                    version=0,
                ),
                [
                    db.Seat(table_id=tid, seat=0, player_id=ann.id),
                    db.Seat(table_id=tid, seat=1, bot="greedy"),
                ],
            )
        seats = [
            {"player_id": ann.id, "bot": None, "name": "Ann"},
            {"player_id": None, "bot": "greedy", "name": "greedy"},
        ]
        result = {"over": True, "ranks": [1, 2]}

        def last_action(tid: str) -> dict:
            return {
                "table_id": tid,
                "n": 0,
                "seat": 0,
                "action": "x",
                "version": 1,
                "finish": {"result": result, "rating": rating_of("slide", seats, result)},
            }

        with pytest.raises(IntegrityError):  # the second row takes the first's position
            store.append_many([last_action("t1"), last_action("t1")])
        assert store.table("t1").status == "running" and store.actions("t1") == []
        assert store.rating(ann.id, "slide") is None
        store.append_many([last_action("t1"), last_action("t2")])
        assert [store.table(t).status for t in ("t1", "t2")] == ["over", "over"]
        assert store.table("t1").result == result and store.table("t1").finished_at
        # both games count: each rated from the rows the previous one wrote
        assert store.rating(ann.id, "slide").games == 2
        assert store.rating("bot:greedy", "slide").games == 2
    finally:
        store.close()
