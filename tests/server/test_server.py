"""The server with real websocket clients: whole games, redaction, stale and foreign actions,
reconnects, restarts, and solitaire comfort."""

from __future__ import annotations

import json

import httpx
import pytest
import websockets

from cardtable import games
from cardtable.bots import make_bot, names
from helpers import play_with_greedy


def views_of(record: dict, seat: int | None) -> set[str]:
    """Every view ``seat`` could have been sent while the recorded game was played."""
    state = games.get(record["game"]).deal(record["seed"], record["players"], record["options"])
    seen = {json.dumps(state.view(seat), sort_keys=True)}
    for s, a in record["actions"]:
        state.act(s, a)
        seen.add(json.dumps(state.view(seat), sort_keys=True))
    return seen


def assert_only_own_views(sock, record: dict, seat: int | None) -> None:
    allowed = views_of(record, seat)
    for message in sock.states:
        assert json.dumps(message["view"], sort_keys=True) in allowed, "a view leaked"
        assert message["seat"] == seat


async def test_slide_against_a_bot_to_the_end_and_nothing_leaks(people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy"])
    assert table["status"] == "running" and table["seed"] is None  # the seed stays secret
    sock = await ann.connect(table["id"])
    final = await play_with_greedy(sock, "slide", errors_allowed=False)
    result = final["view"]["result"]
    assert result["over"] and len(result["scores"]) == 2
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert len(record["actions"]) == 64
    assert_only_own_views(sock, record, 0)
    board = ann.http.get("/api/leaderboard", params={"game": "slide"}).json()
    assert {r["name"] for r in board} == {"Ann", "Greedy bot"}
    await sock.close()


async def test_the_game_two_people_each_see_only_their_own_hand_and_a_spectator_none(people):
    ann, bob, eve = people("Ann"), people("Bob"), people("Eve")
    table = ann.new_table("the-game", ["me", "open"])
    assert table["status"] == "open"
    assert bob.post(f"/api/tables/{table['id']}/join")["seat"] == 1
    a, b = await ann.connect(table["id"]), await bob.connect(table["id"])
    watcher = await eve.connect(table["id"])
    await a.until(lambda s: s["table"]["status"] == "running")
    signalled = False
    bots = {0: make_bot("greedy", "the-game"), 1: make_bot("greedy", "the-game")}
    while True:
        for sock, seat in ((a, 0), (b, 1)):
            state = await sock.until(lambda s: s["version"] >= watcher_version(a, b))
            if state["table"]["status"] == "over" or seat not in state["view"]["to_act"]:
                continue
            if not signalled:
                assert (await sock.act("signal up1 good"))["type"] == "ack"
                signalled = True
                continue
            answer = await sock.act(bots[seat].choose(sock.state["view"], sock.state["legal"]))
            assert answer["type"] == "ack", answer
        if a.state["table"]["status"] == "over" and b.state["table"]["status"] == "over":
            break
    await watcher.until(lambda s: s["table"]["status"] == "over")
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert_only_own_views(a, record, 0)
    assert_only_own_views(b, record, 1)
    assert_only_own_views(watcher, record, None)
    assert all(m["view"]["hand"] is None and m["legal"] == [] for m in watcher.states)
    for sock in (a, b, watcher):
        await sock.close()


def watcher_version(*socks) -> int:
    return max(s.state["version"] for s in socks if s.state)


async def test_doublets_alone_to_the_end_with_undo_redo_hint_restart_and_stats(people):
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    assert table["seed"] is not None  # Doublets shows its deal number
    sock = await ann.connect(table["id"])
    state = await sock.until(lambda s: s["legal"])
    first = state["legal"][-1]
    assert (await sock.act(first))["type"] == "ack"
    info = ann.post(f"/api/tables/{table['id']}/undo")
    assert info["can_redo"] and not info["can_undo"]
    await sock.until(lambda s: s["view"]["stock"] == 44)
    ann.post(f"/api/tables/{table['id']}/redo")
    await sock.until(lambda s: s["view"]["stock"] == 43 or s["view"]["waste"])
    hint = ann.http.get(f"/api/tables/{table['id']}/hint").json()
    assert hint["action"] in sock.state["legal"] and hint["reason"]
    peek = ann.http.get(f"/api/tables/{table['id']}/winnable").json()
    assert peek["peeking"] and peek["winnable"] in (True, False)
    final = await play_with_greedy(sock, "doublets", errors_allowed=False)
    assert final["view"]["over"]
    # a win counts at once; a stuck deal (held open for undo) once it is dealt again
    again = ann.post(f"/api/tables/{table['id']}/restart")
    assert again["id"] != table["id"] and again["seed"] == table["seed"]
    stats = ann.http.get("/api/stats/doublets").json()
    assert stats["played"] == 1 and stats["best_score"] == final["view"]["score"]
    await sock.close()


async def test_stale_and_foreign_actions_are_refused_with_a_fresh_view(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("the-game", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    a, b = await ann.connect(table["id"]), await bob.connect(table["id"])
    state = await a.until(lambda s: s["table"]["status"] == "running" and s["legal"])
    old = state["version"]
    play = next(x for x in state["legal"] if x.startswith("play"))
    assert (await a.act(play))["type"] == "ack"
    second = next(x for x in a.state["legal"] if x.startswith("play"))
    stale = await a.act(second, version=old)
    assert stale["code"] == "stale"
    fresh = await a.recv()
    assert fresh["type"] == "state" and fresh["version"] > old
    # Bob acts out of turn, with a play that is only Ann's to make
    await b.until(lambda s: s["version"] == a.state["version"])
    foreign = await b.act(second)
    assert foreign["type"] == "error", (foreign, second, b.state)
    assert foreign["code"] in ("not_your_turn", "illegal")
    # a connection without a token watches and cannot act
    anon = await ann.connect(table["id"], token=False)
    await anon.until(lambda s: True)
    assert anon.state["seat"] is None and anon.state["view"]["hand"] is None
    assert (await anon.act(second))["code"] == "not_seated"
    for sock in (a, b, anon):
        await sock.close()


async def test_a_resent_action_id_is_applied_once(people):
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    sock = await ann.connect(table["id"])
    state = await sock.until(lambda s: s["legal"])
    message = json.dumps(
        {"type": "act", "action": "flip", "version": state["version"], "id": "same"}
    )
    await sock.ws.send(message)
    await sock.ws.send(message)
    acks = []
    while len(acks) < 2:
        m = await sock.recv()
        if m["type"] == "ack":
            acks.append(m)
    assert acks[0] == acks[1]
    record_actions = ann.http.get(f"/api/tables/{table['id']}").json()["version"]
    assert record_actions == 1
    await sock.close()


async def test_bad_messages_get_typed_errors(people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    assert (await sock.send_raw("not json"))["code"] == "bad_message"
    assert (await sock.send_raw("[1, 2]"))["code"] == "bad_message"
    assert (await sock.send_raw(json.dumps({"type": "dance"})))["code"] == "bad_message"
    assert (await sock.send_raw("x" * 5000))["code"] == "too_large"
    assert (await sock.send_raw(json.dumps({"type": "act", "action": 7})))["code"] == "bad_message"
    assert (await sock.act("reveal z9"))["code"] == "malformed"
    assert (await sock.act("take 7 left"))["code"] in ("not_your_turn", "illegal")
    assert (await sock.send_raw(json.dumps({"type": "ping", "id": "p"})))["type"] == "pong"
    await sock.close()


async def test_reconnect_with_the_token_returns_to_the_same_seat(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["open", "me"])
    bob.post(f"/api/tables/{table['id']}/join")
    sock = await ann.connect(table["id"])
    state = await sock.until(lambda s: s["table"]["status"] == "running")
    assert state["seat"] == 1
    assert (await sock.act(state["legal"][0]))["type"] == "ack"
    await sock.close()
    again = await ann.connect(table["id"])
    state = await again.until(lambda s: True)
    assert state["seat"] == 1 and state["view"]["choice"] is not None
    await again.close()


@pytest.mark.own_process
async def test_restart_the_server_mid_game_and_finish(server, people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy", "greedy"])
    sock = await ann.connect(table["id"])
    bot = make_bot("greedy", "slide")
    for _ in range(6):
        state = await sock.until(lambda s: s["legal"] and 0 in s["view"]["to_act"])
        answer = await sock.act(bot.choose(state["view"], state["legal"]))
        assert answer["type"] == "ack", (answer, state)
    before = sock.state["version"]
    server.restart()  # SIGKILL, then a new process on the same database
    with pytest.raises(websockets.ConnectionClosed):
        await sock.recv(timeout=5)
    sock = await ann.connect(table["id"])
    state = await sock.until(lambda s: True)
    assert state["version"] >= before and state["seat"] == 0
    final = await play_with_greedy(sock, "slide", errors_allowed=False)
    assert final["view"]["result"]["over"]
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert games.replay(record).over
    await sock.close()


def test_http_errors_are_typed(people, server):
    anon = httpx.Client(base_url=server.base)
    answer = anon.post("/api/tables", json={"game": "slide", "seats": ["me", "greedy"]})
    assert answer.status_code == 401 and answer.json()["error"] == "no_player"
    ann = people("Ann")
    bad = ann.http.post("/api/tables", json={"game": "chess", "seats": ["me"]})
    assert bad.status_code == 400 and "no game called 'chess'" in bad.json()["message"]
    bad = ann.http.post("/api/tables", json={"game": "slide", "seats": ["me", "wizard"]})
    assert "no bot called 'wizard'" in bad.json()["message"]
    bad = ann.http.post("/api/tables", json={"game": "slide", "seats": ["me"] * 7})
    assert bad.status_code == 422
    table = ann.new_table("slide", ["me", "greedy"])
    early = ann.http.get(f"/api/tables/{table['id']}/record")
    assert early.status_code == 403 and early.json()["error"] == "not_over"
    assert ann.http.get("/api/tables/nope").status_code == 404
    assert ann.http.post("/api/me", json={"name": "<b>"}).status_code == 400
    anon.close()


async def test_creator_hands_a_departed_seat_to_a_bot(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    b = await bob.connect(table["id"])
    await b.until(lambda s: True)
    refused = ann.http.post(f"/api/tables/{table['id']}/seats/1/bot", json={"bot": "greedy"})
    assert refused.status_code == 409  # Bob is still there
    await b.close()
    denied = bob.http.post(f"/api/tables/{table['id']}/seats/0/bot", json={"bot": "greedy"})
    assert denied.status_code == 403
    import asyncio

    for _ in range(200):  # the server notices the closed socket
        answer = ann.http.post(f"/api/tables/{table['id']}/seats/1/bot", json={"bot": "greedy"})
        if answer.json()["error"] != "seat_taken":
            break
        await asyncio.sleep(0.1)
    # Bob may be reloading his page: his seat waits for him (60 s by default; the handover
    # after the grace: tests/server/test_seats.py)
    assert answer.status_code == 409 and answer.json()["error"] == "grace_period"
    assert answer.json()["retry_after"] > 50


def test_a_research_baseline_is_not_offered_to_players(people):
    """``search-v1`` (a frozen baseline) stays for benches; the web neither lists nor seats it,
    and refuses it as it refuses a bot that does not exist."""
    ann = people("Ann")
    slide = next(g for g in ann.http.get("/api/games").json() if g["name"] == "slide")
    offered = [b["name"] for b in slide["bots"]]
    assert "search" in offered and "search-v1" not in offered
    unknown = ann.http.post("/api/tables", json={"game": "slide", "seats": ["me", "wizard"]})
    for spec in ("search-v1", "search-v1:hard"):
        bad = ann.http.post("/api/tables", json={"game": "slide", "seats": ["me", spec]})
        assert bad.status_code == unknown.status_code == 400
        assert bad.json()["error"] == unknown.json()["error"]
        assert "no bot called 'search-v1'" in bad.json()["message"]
        assert "search-v1" not in bad.json()["message"].partition(";")[2]
    assert "search-v1" in names("slide")  # benches and simulate still have it
    assert make_bot("search-v1:easy", "slide").choose is not None
