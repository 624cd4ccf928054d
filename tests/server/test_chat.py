"""Chat at a table, readable bot names and one identity across browsers (#11), against a
real server in a subprocess with real websocket clients."""

from __future__ import annotations

import json

import httpx
import pytest

from helpers import play_with_greedy
from server.conftest import Client, Socket


async def chat(sock: Socket, text: str, cid: str = "c", stored: str | None = None) -> dict:
    """Write in the chat; the error for it, or the chat message that carried it (as
    ``stored``, if the server tidies it)."""
    await sock.ws.send(json.dumps({"type": "chat", "text": text, "id": cid}))
    while True:
        m = await sock.recv()
        if m["type"] == "error" and m.get("id") == cid:
            return m
        if m["type"] == "chat" and any(x["text"] == (stored or text) for x in m["messages"]):
            return m


async def next_chat(sock: Socket) -> dict:
    while True:
        m = await sock.recv()
        if m["type"] == "chat":
            return m


async def test_players_chat_spectators_read_and_the_creator_may_let_them_write(people):
    ann, bob, cy = people("Ann"), people("Bob"), people("Cy")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join", {})
    a, b, c = (
        await ann.connect(table["id"]),
        await bob.connect(table["id"]),
        await cy.connect(table["id"]),
    )
    anon = await ann.connect(table["id"], token=False)
    for s in (a, b, c, anon):  # each is sent the (empty) chat after its first state
        first = await next_chat(s)
        assert first["replay"] and first["messages"] == [] and s.state is not None
    text = "hi <b>all</b> & <script>x</script>"
    got = await chat(a, text)
    assert got["messages"][0]["text"] == text and got["messages"][0]["name"] == "Ann"
    for s in (b, c, anon):  # stored as written, shown as text by the client
        line = (await next_chat(s))["messages"][0]
        assert (line["text"], line["seat"], line["name"]) == (text, 0, "Ann")
    refused = await chat(c, "may I?")
    assert refused["code"] == "chat_not_allowed" and "spectators" in refused["message"]
    assert (await chat(anon, "me?"))["code"] == "chat_not_allowed"
    # only the creator sets the chat; spectators with a name may then write
    assert (
        bob.http.post(f"/api/tables/{table['id']}/chat", json={"spectators": True}).status_code
        == 403
    )
    assert ann.post(f"/api/tables/{table['id']}/chat", {"spectators": True}) == {
        "free": True,
        "spectators": True,
    }
    told = await next_chat(c)
    assert told["messages"] == [] and told["settings"]["can_write"] is True
    assert (await chat(c, "thanks!"))["messages"][0]["seat"] is None
    assert (await chat(anon, "me?"))["code"] == "chat_not_allowed"  # no name: reads only
    for s in (a, b, c, anon):
        await s.close()


async def test_chat_is_limited_in_length_and_rate_and_the_game_goes_on(people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy"])
    a = await ann.connect(table["id"])
    await next_chat(a)
    assert (await chat(a, "x" * 301))["code"] == "chat_too_long"
    assert (await chat(a, "  \n\t "))["code"] == "chat_empty"
    assert (await chat(a, "a\u202eb\n\nc", stored="ab c"))["type"] == "chat"  # tidied
    for i in range(4):  # the burst is 5 (one was written above)
        assert (await chat(a, f"m{i}", f"c{i}"))["type"] == "chat"
    limited = await chat(a, "one more", "c9")
    assert limited["code"] == "chat_rate_limited" and limited["retry_after"] > 0
    # the chat's limit holds the chat only: a move is answered at once
    state = await a.until(lambda s: s["legal"])
    answer = await a.act(state["legal"][0])
    assert answer["type"] == "ack"
    await a.close()


@pytest.mark.own_process
async def test_the_chat_is_stored_and_replayed_on_reconnect_and_after_a_restart(server, people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy"])
    a = await ann.connect(table["id"])
    for i in range(3):
        await chat(a, f"line {i}", f"c{i}")
    await a.close()
    server.restart()
    again = await ann.connect(table["id"])
    replay = await next_chat(again)
    assert replay["replay"] and [m["text"] for m in replay["messages"]] == [
        "line 0",
        "line 1",
        "line 2",
    ]
    ns = [m["n"] for m in replay["messages"]]
    assert ns == sorted(ns) and replay["messages"][0]["at"].endswith("Z")
    await again.close()


async def test_the_game_starts_with_fixed_phrases_and_the_creator_may_free_the_chat(people):
    ann, bob = people("Ann"), people("Bob")
    games_ = {g["name"]: g for g in ann.http.get("/api/games").json()}
    assert games_["the-game"]["free_chat_default"] is False
    assert games_["slide"]["free_chat_default"] is True
    table = ann.new_table("the-game", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join", {})
    a, b = await ann.connect(table["id"]), await bob.connect(table["id"])
    settings = (await next_chat(b))["settings"]
    assert settings["free"] is False and "Well played" in settings["phrases"]
    await next_chat(a)
    refused = await chat(b, "I have the 34")
    assert refused["code"] == "chat_phrases_only" and '"Ready"' in refused["message"]
    assert (await chat(b, "Well played"))["messages"][0]["name"] == "Bob"
    ann.post(f"/api/tables/{table['id']}/chat", {"free": True})
    while (await next_chat(b))["settings"]["free"] is not True:
        pass
    assert (await chat(b, "free at last"))["type"] == "chat"
    for s in (a, b):
        await s.close()


def test_bots_have_readable_names_numbered_when_a_table_has_two_alike(people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy", "greedy", "search:hard"])
    assert [s["name"] for s in table["seats"]] == ["Ann", "Greedy 2", "Greedy 3", "Search (hard)"]
    lobby = {t["id"]: t for t in ann.http.get("/api/tables").json()}
    if table["id"] in lobby:  # the lobby names them alike
        assert [s["name"] for s in lobby[table["id"]]["seats"]][1:] == [
            "Greedy 2",
            "Greedy 3",
            "Search (hard)",
        ]


async def test_a_recovery_code_makes_another_browser_the_same_person(server, people):
    ann = people("Ann")
    assert ann.http.get("/api/me").json()["recovery"] is False
    code = ann.post("/api/me/recovery")["code"]
    assert len(code) == 23 and ann.http.get("/api/me").json()["recovery"] is True
    other = httpx.Client(base_url=server.base, timeout=10)  # another browser: no cookie
    me = other.post("/api/me/recover", json={"code": code.lower().replace("-", " ")}).json()
    assert me["player"] == {"id": ann.id, "name": "Ann", "bot": False}
    assert other.get("/api/me").json()["player"]["id"] == ann.id
    assert ann.http.get("/api/me").json()["player"]["id"] == ann.id  # still signed in
    # the same person plays from both browsers: one leaderboard row
    for http in (ann.http, other):
        table = http.post("/api/tables", json={"game": "slide", "seats": ["me", "greedy"]})
        sock = await ann.connect(table.json()["id"]) if http is ann.http else None
        if sock is None:
            token = other.cookies["cardtable_token"]
            helper = Client.__new__(Client)
            helper.server, helper.token = server, token
            sock = await helper.connect(table.json()["id"])
        await play_with_greedy(sock, "slide")
        await sock.close()
    board = ann.http.get("/api/leaderboard", params={"game": "slide"}).json()
    mine = [r for r in board if not r["bot"]]
    assert len(mine) == 1 and mine[0]["name"] == "Ann" and mine[0]["games"] == 2
    assert (
        mine[0]["score"] == round(1500 + 24 * (mine[0]["mu"] - 3 * mine[0]["sigma"]))
        or abs(mine[0]["score"] - (1500 + 24 * mine[0]["rating"])) <= 1
    )
    # the code and the new browser's token are stored hashed, like every token
    from sqlalchemy import create_engine, text

    engine = create_engine(server.db_url)
    with engine.connect() as conn:
        stored = " ".join(
            str(v)
            for table in ("recovery_codes", "player_tokens")
            for row in conn.execute(text(f"SELECT * FROM {table}"))
            for v in row
        )
    engine.dispose()
    assert code.replace("-", "") not in stored and other.cookies["cardtable_token"] not in stored
    # renewing: the old code stops working, the new one works
    new = other.post("/api/me/recovery", headers={"x-cardtable": "1"}).json()["code"]
    assert new != code
    third = httpx.Client(base_url=server.base, timeout=10)
    gone = third.post("/api/me/recover", json={"code": code})
    assert gone.status_code == 404 and gone.json()["error"] == "bad_code"
    assert third.post("/api/me/recover", json={"code": new}).json()["player"]["id"] == ann.id
    # guessing is rate-limited per address (five tries at once, then one a minute)
    answers = [
        third.post("/api/me/recover", json={"code": "AAAAA-AAAAA"}).status_code for _ in range(4)
    ]
    assert answers[-1] == 429 and 404 in answers
    for http in (other, third):
        http.close()
