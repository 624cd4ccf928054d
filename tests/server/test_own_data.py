"""A person's own data (issue #30), against a real server with real websocket clients: their
finished games' records in one download, only theirs and only finished ones, each of which
replays; and deleting their identity: they leave their unfinished tables, their name is gone
from every game (a former player, in words each reader translates), their credentials end,
and their games still replay."""

from __future__ import annotations

import json

import httpx

from cardtable import games
from server.test_practice import finished_doublets, play


async def resigned_against_a_bot(person) -> str:
    """A Slide table of the person and a bot, resigned: over, rated, with the person last."""
    table = person.new_table("slide", ["me", "greedy"])
    person.post(f"/api/tables/{table['id']}/resign")
    return table["id"]


async def shared_with(ann, bob) -> tuple[str, object, object]:
    """A Slide table of Ann and Bob, both connected, a move played: unfinished."""
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join", {"seat": None})
    sa, sb = await ann.connect(table["id"]), await bob.connect(table["id"])
    state = await sa.until(lambda s: bool(s["legal"]) and 0 in s["to_act"])
    assert (await sa.act(state["legal"][0]))["type"] == "ack"
    return table["id"], sa, sb


async def test_my_records_are_my_finished_games_in_one_download(people):
    ann, bob = people("Ann"), people("Bob")
    solved, line = await finished_doublets(ann)
    resigned = await resigned_against_a_bot(ann)
    shared, sa, sb = await shared_with(ann, bob)
    await finished_doublets(bob)  # Bob's: never in Ann's file
    answer = ann.http.get("/api/me/records")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"].startswith("attachment;")
    assert answer.headers["content-type"].startswith("application/json")
    records = answer.json()
    assert [r["table"] for r in records] == [resigned, solved]  # newest first, no shared
    by_table = {r["table"]: r for r in records}
    won = by_table[solved]
    assert won["seat"] == 0 and won["record"]["players"] == 1 and won["finished_at"]
    assert [a for _seat, a in won["record"]["actions"]] == line
    assert games.replay(won["record"]).over  # a record as the rules library replays it
    assert by_table[resigned]["ended"] == "resigned" and by_table[resigned]["seat"] == 0
    assert by_table[resigned]["record"]["seed"] > 2**64  # a shared deal's 128 bits, exact
    assert httpx.get(f"{ann.server.base}/api/me/records").status_code == 401
    await sa.close()
    await sb.close()


async def test_deleting_my_identity_leaves_my_tables_and_my_name(people):
    ann, bob = people("Ann"), people("Bob")
    solved, _line = await finished_doublets(ann)
    resigned = await resigned_against_a_bot(ann)
    shared, sa, sb = await shared_with(ann, bob)
    ann.http.post("/api/me/recovery", headers={"x-cardtable": "1"}).raise_for_status()
    refused = ann.http.delete("/api/me")  # no JSON body, no x-cardtable header
    assert refused.status_code == 403 and refused.json()["error"] == "csrf"
    foreign = ann.http.delete(
        "/api/me", headers={"x-cardtable": "1", "origin": "http://evil.example"}
    )
    assert foreign.status_code == 403 and foreign.json()["error"] == "bad_origin"
    done = ann.http.delete("/api/me", headers={"x-cardtable": "1"})
    assert done.status_code == 200 and done.json() == {"deleted": True, "left": 1}
    assert "cardtable_token" not in ann.http.cookies  # this browser's cookie is gone
    # the session ends: the token names nobody any more
    gone = httpx.get(f"{ann.server.base}/api/me", cookies={"cardtable_token": ann.token})
    assert gone.json()["player"] is None
    socket_as_ann = await ann.connect(shared)
    assert (await socket_as_ann.until(lambda s: True))["seat"] is None
    await socket_as_ann.close()
    # the shared game plays on, Ann's seat left to the fallback bot, for a former player
    state = await sb.until(lambda s: s["table"]["seats"][0]["bot"] is not None)
    seat = state["table"]["seats"][0]
    assert seat["person"] == "a former player" and "Ann" not in json.dumps(state["table"])
    assert "a former player" in json.dumps(seat["shown"])  # wire words: translated
    # finished games still replay, with no name of Ann's anywhere
    for table_id in (solved, resigned):
        replay = bob.http.get(f"/api/tables/{table_id}/replay?step=1000&log=1")
        assert replay.status_code == 200 and "Ann" not in replay.text
        assert "a former player" in replay.text
        record = bob.http.get(f"/api/tables/{table_id}/record")
        assert games.replay(record.json()).record()["actions"] == record.json()["actions"]
        assert "Ann" not in record.text
    board = bob.http.get("/api/leaderboard?game=slide").json()
    assert "Ann" not in json.dumps(board) and "a former player" in {r["name"] for r in board}
    taken = bob.http.post("/api/me", json={"name": "A former player"})
    assert taken.status_code == 400 and taken.json()["error"] == "reserved_name"
    await sa.close()
    await sb.close()


async def test_a_former_player_reads_in_each_language(people):
    ann, bob = people("Ann"), people("Bob")
    solved, _line = await finished_doublets(ann)
    ann.http.delete("/api/me", headers={"x-cardtable": "1"}).raise_for_status()
    bob.post("/api/me/language", {"language": "de"})
    catalog = bob.http.get("/i18n/de.json").json()
    said = catalog["messages"]["cardtable"]["a former player"]
    assert said and said != "a former player"
    replay = bob.http.get(f"/api/tables/{solved}/replay?step=1").json()
    assert replay["action"]["msg"]["args"]["who"]["msg"] == "a former player"
    assert play  # (the helper module's)
