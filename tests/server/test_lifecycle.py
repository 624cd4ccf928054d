"""The table lifecycle (issue #11), against a real server with real clients: a new deal or a
restart closes the game it replaces as abandoned (so 30 "New deal"s no longer lock a person
out), people leave and resign, idle tables are closed by the sweep, no undo after the end,
statistics count abandoned deals as lost, and "My games" lists it all.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from helpers import play_with_greedy, stuck
from server.conftest import Client, Server
from server.test_seats import play_greedy, until_gone


def info(client: Client, table_id: str) -> dict:
    return client.http.get(f"/api/tables/{table_id}").json()


def new_deal(client: Client, replaces: str | None) -> dict:
    return client.post("/api/tables", {"game": "doublets", "seats": ["me"], "replaces": replaces})


def test_thirty_new_deals_leave_one_game_open_and_count_as_lost(server, people):
    """The lockout: each "New deal" used to leave its game running for ever, and the 31st
    table was refused (429) with no way to find or leave the others."""
    ann = people("Ann")
    first = ann.new_table("doublets", ["me"])
    ids = [first["id"]]
    for _ in range(30):
        ids.append(new_deal(ann, ids[-1])["id"])
    for old in ids[:-1]:
        closed = info(ann, old)
        assert closed["status"] == "over" and closed["ended"] == "abandoned"
        assert not closed["can_undo"] and not closed["can_redo"]
    # the limit counts what is really unfinished: one game, so both kinds of table work
    assert ann.new_table("slide", ["me", "open"])["status"] == "open"
    assert ann.new_table("doublets", ["me"])["status"] == "running"
    stats = ann.http.get("/api/stats/doublets").json()
    assert stats["played"] == 30 and stats["won"] == 0 and stats["current_streak"] == 0
    # an abandoned game is finished: nothing more is played, undone or redone; its record
    # (and so its replay) stays available
    sock_answer = ann.http.post(f"/api/tables/{ids[0]}/undo", json={})
    assert sock_answer.status_code == 409 and sock_answer.json()["error"] == "game_over"
    record = ann.http.get(f"/api/tables/{ids[0]}/record")
    assert record.status_code == 200 and record.json()["game"] == "doublets"
    assert ann.http.get(f"/api/tables/{ids[0]}/replay", params={"step": 0}).status_code == 200
    # My games: three unfinished (the last deal, the slide table, the new doublets), the 30
    # abandoned ones a page at a time, newest first
    mine = ann.http.get("/api/my-games", params={"limit": 20}).json()
    assert len(mine["unfinished"]) == 3
    assert ids[-1] in {g["id"] for g in mine["unfinished"]}
    assert [g["your_turn"] for g in mine["unfinished"]][:2] == [True, True]  # yours first
    assert len(mine["finished"]) == 20 and mine["more"]
    assert all(g["ended"] == "abandoned" and "lost" in g["verdict"] for g in mine["finished"])
    older = ann.http.get("/api/my-games", params={"limit": 20, "page": 1}).json()
    assert len(older["finished"]) == 10 and not older["more"]
    assert {g["id"] for g in mine["finished"] + older["finished"]} == set(ids[:-1])
    too_many = ann.http.get("/api/my-games", params={"limit": 5000})
    assert too_many.status_code == 400 and too_many.json()["error"] == "bad_request"


def test_a_new_deal_never_closes_someone_elses_game(people):
    ann, bob = people("Ann"), people("Bob")
    hers = ann.new_table("doublets", ["me"])
    refused = bob.http.post(
        "/api/tables", json={"game": "doublets", "seats": ["me"], "replaces": hers["id"]}
    )
    assert refused.status_code == 403, refused.text
    assert info(ann, hers["id"])["status"] == "running"


async def test_restart_in_the_middle_is_a_lost_deal_and_no_undo_after_the_end(people):
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    await play_greedy(sock, 3)
    again = ann.post(f"/api/tables/{table['id']}/restart")
    old = await sock.until(lambda s: s["table"]["status"] == "over")
    assert old["table"]["ended"] == "abandoned" and old["legal"] == []
    assert not old["table"]["can_undo"]
    assert again["seed"] == table["seed"] and again["status"] == "running"
    await sock.close()
    # the same deal played to its end: no undo, no redo, and the end is in the statistics
    # (a deal with no move left is held open for undo until it is left: issue #24)
    sock = await ann.connect(again["id"])
    await sock.until(lambda s: True)
    end = await play_with_greedy(sock, "doublets")
    if stuck(end):
        assert end["table"]["can_undo"]
        ann.post(f"/api/tables/{again['id']}/leave")
        end = await sock.until(lambda s: s["table"]["status"] == "over")
    assert end["table"]["status"] == "over" and "ended" not in end["table"]
    assert not end["table"]["can_undo"] and not end["table"]["can_redo"]
    for what in ("undo", "redo"):
        refused = ann.http.post(f"/api/tables/{again['id']}/{what}", json={})
        assert refused.status_code == 409 and refused.json()["error"] == "game_over"
    won = end["view"]["result"]["won"]
    stats = ann.http.get("/api/stats/doublets").json()
    assert stats["played"] == 2 and stats["won"] == int(won)
    # restarting a finished deal is a new game and changes nothing of the old one
    ann.post(f"/api/tables/{again['id']}/restart")
    assert ann.http.get("/api/stats/doublets").json() == stats
    await sock.close()


async def test_leaving_a_solitaire_closes_it_as_lost(people):
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    answer = ann.post(f"/api/tables/{table['id']}/leave")
    assert answer["outcome"] == "closed" and answer["table"]["ended"] == "abandoned"
    stats = ann.http.get("/api/stats/doublets").json()
    assert stats["played"] == 1 and stats["won"] == 0


async def test_leaving_an_open_table_frees_the_seat_and_the_last_person_closes_it(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    assert bob.post(f"/api/tables/{table['id']}/leave")["outcome"] == "freed"
    seats = info(ann, table["id"])["seats"]
    assert not seats[1]["taken"] and info(ann, table["id"])["status"] == "open"
    refused = bob.http.post(f"/api/tables/{table['id']}/leave", json={})
    assert refused.status_code == 409 and refused.json()["error"] == "not_seated"
    assert ann.post(f"/api/tables/{table['id']}/leave")["outcome"] == "closed"
    assert info(ann, table["id"])["ended"] == "abandoned"
    assert ann.http.get("/api/tables").json() == []  # the lobby hides dead tables


async def test_a_resigned_seat_ranks_last_while_a_bot_plays_it_on(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open", "greedy"])
    bob.post(f"/api/tables/{table['id']}/join")
    sock = await ann.connect(table["id"])
    bobs = await bob.connect(table["id"])
    await bobs.until(lambda s: s["seat"] == 1 and s["table"]["status"] == "running")
    answer = bob.post(f"/api/tables/{table['id']}/resign")
    assert answer["outcome"] == "bot"
    assert answer["table"]["seats"][1]["bot"] == "greedy"
    # Bob's socket watches now: an action from it is refused, whatever seat it had
    await bobs.until(lambda s: s["seat"] is None)
    news = await sock.until(lambda s: any("resigned" in n for n in s["table"]["notices"]))
    assert news["table"]["status"] == "running"
    # Bob still finds the table (as a resigned game) on his My games
    assert table["id"] in {
        g["id"]
        for g in bob.http.get("/api/my-games").json()["unfinished"]
        + bob.http.get("/api/my-games").json()["finished"]
    }
    await play_greedy(sock)
    await bobs.close()
    result = sock.state["view"]["result"]
    end = ann.http.get(f"/api/tables/{table['id']}").json()
    assert end["status"] == "over"
    ranks = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert ranks["game"] == "slide"
    # the stored result (the view's is the game's own): Bob last, whatever the bot scored
    mine = bob.http.get("/api/my-games").json()["finished"]
    (bobs_game,) = [g for g in mine if g["id"] == table["id"]]
    assert bobs_game["verdict"].startswith("You came 3rd of 3"), bobs_game
    assert "scores" in result
    board = bob.http.get("/api/leaderboard", params={"game": "slide"}).json()
    assert "Bob" in {r["name"] for r in board}  # rated as the person who resigned
    await sock.close()


async def test_resigning_against_bots_ends_the_game_as_a_rated_loss(people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy"])
    answer = ann.post(f"/api/tables/{table['id']}/resign")
    assert answer["outcome"] == "closed" and answer["table"]["ended"] == "resigned"
    (game,) = ann.http.get("/api/my-games").json()["finished"]
    assert game["verdict"].startswith("Resigned · You came 2nd of 2"), game
    board = {
        r["name"]: r for r in ann.http.get("/api/leaderboard", params={"game": "slide"}).json()
    }
    assert board["Ann"]["games"] == 1 and board["Greedy bot"]["games"] == 1
    assert board["Greedy bot"]["mu"] > board["Ann"]["mu"]


async def test_resigning_a_cooperative_game_ends_it_as_lost_for_the_table(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("the-game", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    answer = bob.post(f"/api/tables/{table['id']}/resign")
    assert answer["outcome"] == "closed" and answer["table"]["ended"] == "resigned"
    (game,) = ann.http.get("/api/my-games").json()["finished"]
    assert game["ended"] == "resigned"


@pytest.fixture
def idle_server(tmp_path: Path):
    srv = Server(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path, ["--idle-close", "2"])
    srv.start()
    yield srv
    srv.kill()


async def test_idle_tables_are_closed_unless_someone_is_there(idle_server):
    ann, bob = Client(idle_server, "Ann"), Client(idle_server, "Bob")
    lonely = ann.new_table("slide", ["me", "open"])
    alone = ann.new_table("doublets", ["me"])
    watched = bob.new_table("doublets", ["me"])
    sock = await bob.connect(watched["id"])
    await sock.until(lambda s: True)
    for _ in range(100):
        if (
            info(ann, lonely["id"])["status"] == "over"
            and info(ann, alone["id"])["status"] == "over"
        ):
            break
        await asyncio.sleep(0.1)
    assert info(ann, lonely["id"])["ended"] == "idle"
    assert info(ann, alone["id"])["ended"] == "idle"
    assert ann.http.get("/api/tables").json() == []
    assert info(bob, watched["id"])["status"] == "running"  # Bob is at his table
    await sock.close()
    await until_gone(bob, watched["id"], 0)
    for _ in range(100):
        if info(bob, watched["id"])["status"] == "over":
            break
        await asyncio.sleep(0.1)
    assert info(bob, watched["id"])["ended"] == "idle"
    stats = ann.http.get("/api/stats/doublets").json()
    assert stats["played"] == 1 and stats["won"] == 0


async def test_my_games_lists_tables_from_their_rows_without_loading_them(tmp_path: Path):
    """Issue #23: a table loaded only to be listed runs its own clocks and bots (with several
    processes, on stale state). My games reads rows: whose turn it is is stored with every
    action and undo (``tables.to_act``), and a row from before that is mended at load."""
    from cardtable.server.storage import store as db
    from cardtable.server.tables.hub import Hub
    from cardtable.server.web.mygames import my_games

    store = db.Store(f"sqlite:///{tmp_path / 'mine.sqlite'}")
    hub = Hub(store)
    try:
        (ann, _), (bob, _) = store.new_player("Ann"), store.new_player("Bob")
        shared = hub.create(ann, "slide", ["me", "open"], {})
        await hub.join(shared, bob, None)
        await hub.act(shared, 0, shared.state.legal(0)[0])
        solo = hub.create(ann, "doublets", ["me"], {})
        await hub.act(solo, 0, solo.state.legal(0)[0])
        await hub.undo(solo, ann)
        for table in (shared, solo):
            hub.unload(table)
        for person, seat in ((ann, 0), (bob, 1)):
            listed = {g["id"]: g for g in my_games(hub, person, 0, 20)["unfinished"]}
            assert hub.tables == {}  # nothing loaded to be listed
            game = listed[shared.id]
            assert game["seat"] == seat and game["status"] == "running"
            assert game["your_turn"] == (seat in shared.state.to_act())
            assert game["to_act"] == [shared.seats[s]["name"] for s in shared.state.to_act()]
            assert game["opponents"] == ["Bob" if seat == 0 else "Ann"]
        # the undo stored the seats to act after it
        assert store.table(solo.id).to_act == list(solo.state.to_act()) == [0]
        assert listed_turn(hub, ann, solo.id)
        # a row stored before the seats to act were: listed (none known without a clock),
        # and given them when its holder next loads it
        with store.engine.begin() as conn:
            conn.execute(db.TABLES.update().where(db.TABLES.c.id == solo.id).values(to_act=None))
        assert not listed_turn(hub, ann, solo.id)
        hub.load(solo.id)
        assert store.table(solo.id).to_act == [0] and listed_turn(hub, ann, solo.id)
    finally:
        await hub.close()
        store.close()


def listed_turn(hub, player, table_id: str) -> bool:
    from cardtable.server.web.mygames import my_games

    listed = {g["id"]: g for g in my_games(hub, player, 0, 20)["unfinished"]}
    return listed[table_id]["your_turn"]


async def test_the_last_person_leaving_to_bots_ends_the_game_with_the_same_places_everywhere(
    server, people
):
    """Issue #24: Ann and Bob at a Slide table with a bot; Bob resigns, then Ann, the last
    person, leaves: the game ends there. Her page says why and every place (the bots first,
    Ann, then Bob who resigned first), and My games says the same place; the replay is
    there."""
    ann, bob = people("Ann"), people("Bob")
    table_id = ann.new_table("slide", ["me", "open", "greedy"])["id"]
    bob.post(f"/api/tables/{table_id}/join", {"seat": 1})
    a = await ann.connect(table_id)
    await a.until(lambda s: s["table"]["status"] == "running")
    assert bob.post(f"/api/tables/{table_id}/resign")["outcome"] == "bot"
    (game,) = bob.http.get("/api/my-games").json()["unfinished"]
    assert game["you"] == "resigned" and game["seat"] == 1, game
    assert ann.post(f"/api/tables/{table_id}/leave")["outcome"] == "closed"
    state = await a.until(lambda s: s["table"]["status"] == "over")
    assert state["table"]["ended"] == "resigned"
    assert state["ending"]["verdict"] == "You came 2nd of 3.", state["ending"]
    lines = state["ending"]["lines"]
    assert lines[0] == "Resigned"  # how it closed, first: the page's headline (#25)
    assert "Nobody but bots played on" in lines[1]
    assert lines[2].startswith("#1 Greedy") and lines[3:] == [
        "#2 Ann (resigned)",
        "#3 Bob (resigned)",
    ], lines
    await a.close()
    (mine,) = ann.http.get("/api/my-games").json()["finished"]
    assert mine["verdict"] == "Resigned · You came 2nd of 3.", mine
    (his,) = bob.http.get("/api/my-games").json()["finished"]
    assert his["verdict"] == "Resigned · You came 3rd of 3." and his["seat"] == 1, his
    assert ann.http.get(f"/api/tables/{table_id}/replay", params={"step": 0}).status_code == 200
