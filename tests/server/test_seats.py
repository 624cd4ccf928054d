"""Seats and history, against a real server with real websocket clients: a finished game's
seats never change, a seat goes to a bot only after its person has been gone a grace period,
the record and the replay name who played each action, and people may not take bots' names.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from cardtable import games
from cardtable.bots import make_bot
from server.conftest import Client, Server

#: these tests kill, restart or time the server: a process of its own
pytestmark = pytest.mark.own_process

GRACE = 2.0  # seconds: the --seat-grace of the servers that test the positive case


def grace_server_for(
    db_url: str, data: Path, grace: float = GRACE, src: str | None = None
) -> Server:
    """A server started with ``--seat-grace`` (or, for a database written by the starting
    commit, that commit's source tree, which has no such option)."""
    return Server(db_url, data, [] if src else ["--seat-grace", str(grace)], src=src)


@pytest.fixture
def grace_server(tmp_path: Path):
    srv = grace_server_for(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path)
    srv.start()
    yield srv
    srv.kill()


def hand(client: Client, table_id: str, seat: int, bot: str = "greedy") -> httpx.Response:
    return client.http.post(f"/api/tables/{table_id}/seats/{seat}/bot", json={"bot": bot})


async def until_gone(client: Client, table_id: str, seat: int) -> float:
    """Wait until the server shows ``seat`` as away; the time it was first seen so."""
    for _ in range(200):
        info = client.http.get(f"/api/tables/{table_id}").json()
        if info["seats"][seat]["connected"] is False:
            return time.monotonic()
        await asyncio.sleep(0.01)
    raise AssertionError("the server never noticed the closed socket")


async def play_greedy(sock, moves: int | None = None) -> int:
    """Play our seat with the greedy policy: ``moves`` actions, or until the game is over.
    Returns the number of actions played."""
    bot, played = make_bot("greedy", sock.state["table"]["game"]), 0
    while moves is None or played < moves:
        state = await sock.until(
            lambda s: (
                s["table"]["status"] == "over" or (s["legal"] and s["seat"] in s["view"]["to_act"])
            )
        )
        if state["table"]["status"] == "over":
            break
        answer = await sock.act(bot.choose(state["view"], state["legal"]))
        assert answer["type"] == "ack", answer
        played += 1
    return played


async def until_over(client: Client, table_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = client.http.get(f"/api/tables/{table_id}").json()
        if info["status"] == "over":
            return info
        await asyncio.sleep(0.05)
    raise AssertionError("the game never ended")


# -- 1. seats of finished games never change ------------------------------------------------
async def test_the_seats_of_a_finished_game_never_change(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "greedy"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    await play_greedy(sock)
    await sock.close()
    await until_gone(ann, table["id"], 0)
    before = ann.http.get(f"/api/tables/{table['id']}").json()
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    for seat in (0, 1):
        refused = hand(ann, table["id"], seat)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] == "game_over"
    joined = bob.http.post(f"/api/tables/{table['id']}/join", json={})
    assert joined.status_code == 409 and joined.json()["error"] == "game_over"
    after = ann.http.get(f"/api/tables/{table['id']}").json()
    assert after["seats"] == before["seats"] and after["version"] == before["version"]
    assert ann.http.get(f"/api/tables/{table['id']}/record").json() == record


# -- 2. the grace period --------------------------------------------------------------------
async def table_with_ann(bob: Client, ann: Client) -> tuple[str, object]:
    """Bob's Slide table with Ann at seat 1, connected; returns (table id, Ann's socket)."""
    table = bob.new_table("slide", ["me", "open"])
    ann.post(f"/api/tables/{table['id']}/join")
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: s["seat"] == 1)
    return table["id"], sock


async def test_a_seat_is_refused_to_a_bot_within_the_default_grace(people):
    bob, ann = people("Bob"), people("Ann")
    table_id, sock = await table_with_ann(bob, ann)
    await sock.close()
    await until_gone(bob, table_id, 1)
    await asyncio.sleep(0.1)
    refused = hand(bob, table_id, 1)
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert body["error"] == "grace_period"
    assert 55 < body["retry_after"] <= 60  # the default grace: 60 s
    assert "can go to a bot in" in body["message"]
    assert bob.http.get(f"/api/tables/{table_id}").json()["seats"][1]["bot"] is None


async def test_a_seat_goes_to_a_bot_after_the_grace_and_not_before(grace_server):
    bob, ann = Client(grace_server, "Bob"), Client(grace_server, "Ann")
    table_id, sock = await table_with_ann(bob, ann)
    await sock.close()
    await until_gone(bob, table_id, 1)
    await asyncio.sleep(0.1)
    refused = hand(bob, table_id, 1)
    assert refused.status_code == 409 and refused.json()["error"] == "grace_period"
    left = refused.json()["retry_after"]
    assert 0 < left < GRACE and "s ago" in refused.json()["message"]
    await asyncio.sleep(left + 0.1)
    taken = hand(bob, table_id, 1)
    assert taken.status_code == 200, taken.text
    assert taken.json()["seats"][1]["bot"] == "greedy"
    # Ann comes back too late: she watches
    back = await ann.connect(table_id)
    assert (await back.until(lambda s: True))["seat"] is None
    await back.close()


async def test_a_player_back_within_the_grace_keeps_the_seat(grace_server):
    bob, ann = Client(grace_server, "Bob"), Client(grace_server, "Ann")
    table_id, sock = await table_with_ann(bob, ann)
    await sock.close()  # a page reload
    await until_gone(bob, table_id, 1)
    refused = hand(bob, table_id, 1)
    assert refused.status_code == 409 and refused.json()["error"] == "grace_period"
    back = await ann.connect(table_id)
    state = await back.until(lambda s: True)
    assert state["seat"] == 1 and state["table"]["seats"][1]["name"] == "Ann"
    await asyncio.sleep(GRACE + 0.2)  # she stays: the grace never runs out while she is here
    still = hand(bob, table_id, 1)
    assert still.status_code == 409 and still.json()["error"] == "seat_taken"
    await back.close()


async def test_a_seat_never_connected_counts_from_the_join_and_from_a_restart(grace_server):
    bob, ann = Client(grace_server, "Bob"), Client(grace_server, "Ann")
    table = bob.new_table("slide", ["me", "open"])
    ann.post(f"/api/tables/{table['id']}/join")  # ... and never opens the table
    refused = hand(bob, table["id"], 1)
    assert refused.status_code == 409 and refused.json()["error"] == "grace_period"
    await asyncio.sleep(GRACE + 0.1)
    grace_server.restart()  # the server forgets when she left: gone since it loaded the table
    again = hand(bob, table["id"], 1)
    assert again.status_code == 409 and again.json()["error"] == "grace_period"
    await asyncio.sleep(again.json()["retry_after"] + 0.1)
    assert hand(bob, table["id"], 1).status_code == 200


# -- 3. who played each action --------------------------------------------------------------
ANN_MOVES = 5


async def ann_then_greedy(bob: Client, ann: Client) -> tuple[str, int]:
    """Bob's Slide table: Ann plays seat 1 for ANN_MOVES actions, leaves, and after the
    grace Bob hands her seat to the greedy bot, which plays it to the end (Bob plays greedy
    too). Returns the table id and the log index of the bot's first action at seat 1."""
    table_id, sock = await table_with_ann(bob, ann)
    mine = await bob.connect(table_id)
    await mine.until(lambda s: True)
    bob_plays = asyncio.create_task(play_greedy(mine))
    assert await play_greedy(sock, ANN_MOVES) == ANN_MOVES
    await sock.close()
    await until_gone(bob, table_id, 1)
    await asyncio.sleep(GRACE + 0.1)
    assert hand(bob, table_id, 1).status_code == 200
    await asyncio.wait_for(bob_plays, 60)
    await mine.close()
    record = bob.http.get(f"/api/tables/{table_id}/record").json()
    seat_one = [n for n, (seat, _) in enumerate(record["actions"]) if seat == 1]
    return table_id, seat_one[ANN_MOVES]


async def test_the_record_replay_and_info_name_the_person_then_the_bot(grace_server):
    bob, ann = Client(grace_server, "Bob"), Client(grace_server, "Ann")
    table_id, handed_at = await ann_then_greedy(bob, ann)
    # the bot plays Ann's seat on, for her (#24)
    ann_then_bot = [
        {"name": "Ann", "bot": None, "person": None, "from": 0},
        {"name": "Greedy", "bot": "greedy", "person": "Ann", "from": handed_at},
    ]
    bob_alone = [{"name": "Bob", "bot": None, "person": None, "from": 0}]

    record = bob.http.get(f"/api/tables/{table_id}/record").json()
    assert record["played_by"] == [bob_alone, ann_then_bot]
    state = games.replay(record)  # the record with who played still replays
    assert state.over and len(state.actions) == len(record["actions"])
    old = {k: v for k, v in record.items() if k != "played_by"}  # an old record
    assert games.replay(old).record() == state.record()

    info = bob.http.get(f"/api/tables/{table_id}").json()
    assert [s["history"] for s in info["seats"]] == [bob_alone, ann_then_bot]

    for n, (seat, action) in enumerate(record["actions"]):
        step = bob.http.get(f"/api/tables/{table_id}/replay", params={"step": n + 1}).json()
        assert step["action"]["seat"] == seat and step["action"]["action"] == action
        expected = "Bob" if seat == 0 else "Ann" if n < handed_at else "Greedy"
        assert step["action"]["by"]["name"] == expected, (n, step["action"])
        assert (step["action"]["by"]["bot"] is None) == (expected != "Greedy")
        assert step["action"]["by"]["person"] == ("Ann" if expected == "Greedy" else None)
    assert bob.http.get(f"/api/tables/{table_id}/replay").json()["played_by"] == record["played_by"]
    # ... and after a restart, from the stored actors
    grace_server.restart()
    assert bob.http.get(f"/api/tables/{table_id}/record").json() == record


async def test_a_game_stored_before_actors_were_kept_still_loads_and_replays(tmp_path):
    """Action rows without an actor (as a database of the commits before actors were kept
    holds them) still load, replay and name the seats' present occupants."""
    url = f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
    server = grace_server_for(url, tmp_path)
    server.start()
    try:
        ann = Client(server, "Ann")
        table = ann.new_table("slide", ["me", "greedy"])
        sock = await ann.connect(table["id"])
        await sock.until(lambda s: True)
        await play_greedy(sock)
        await sock.close()
        server.kill()
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("UPDATE actions SET actor = NULL, version = NULL"))
        engine.dispose()
        server.start()
        record = ann.http.get(f"/api/tables/{table['id']}/record").json()
        assert record["played_by"] == [
            [{"name": "Ann", "bot": None, "person": None, "from": 0}],
            [{"name": "Greedy", "bot": "greedy", "person": None, "from": 0}],
        ]
        assert games.replay(record).over
        step = ann.http.get(f"/api/tables/{table['id']}/replay", params={"step": 1}).json()
        assert step["action"]["by"]["name"] in ("Ann", "Greedy")
    finally:
        server.kill()


# -- 4. bots' names are for bots ------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "Greedy bot",
        "search",
        "GREEDY",
        "Random bot",
        "Expert",
        "team",
        "fair",
        "greedybot",
        "Search:hard",
        "ext:mine",
        "cmd:ls",
        "Ann's bot",
        "ann_bot",
        "Bots",
        " greedy  bot ",
        "ｇｒｅｅｄｙ",
    ],
)
def test_a_person_may_not_take_a_bots_name(server, name):
    with httpx.Client(base_url=server.base, timeout=10) as http:
        refused = http.post("/api/me", json={"name": name})
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == "reserved_name"


def test_ordinary_names_are_still_welcome_and_a_rename_is_checked_too(people):
    for name in ("Ann", "Abbot", "Robot", "Greedy Gus", "Botond", "Searcher"):
        assert people(name).id
    ann = people("Ann")
    refused = ann.http.post("/api/me", json={"name": "Greedy bot"})
    assert refused.status_code == 400 and refused.json()["error"] == "reserved_name"
    assert ann.http.get("/api/me").json()["player"]["name"] == "Ann"


async def test_the_leaderboard_tells_bots_from_people(people):
    ann = people("Ann")
    table = ann.new_table("slide", ["me", "greedy"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    await play_greedy(sock)
    await sock.close()
    board = ann.http.get("/api/leaderboard", params={"game": "slide"}).json()
    assert {(r["name"], r["bot"]) for r in board} == {("Ann", False), ("Greedy bot", True)}


def test_replay_accepts_who_played_and_still_refuses_other_unknown_fields():
    state = games.get("slide").deal(7, 2)
    while not state.over:
        for seat in state.to_act():
            state.act(seat, state.legal(seat)[0])
    record = {
        **state.record(),
        "played_by": [
            [{"name": "Ann", "bot": None, "from": 0}],
            [{"name": "greedy", "bot": "greedy", "from": 0}],
        ],
    }
    assert games.replay(record) == state
    assert games.replay(state.record()) == state  # a record without it, as before
    from cardtable.core.errors import BadRecord

    with pytest.raises(BadRecord, match="unknown fields: players_by"):
        games.replay({**record, "players_by": []})


# -- 5. a seat given to a bot keeps its person; no other seat is renamed (#24) --------------
async def replay_log(client: Client, table_id: str) -> list[dict]:
    """A finished table's whole log in words, from its replay (a page at a time)."""
    log: list[dict] = []
    while True:
        page = client.http.get(
            f"/api/tables/{table_id}/replay", params={"step": 0, "log": 1, "log_offset": len(log)}
        ).json()
        log += page["log"]
        if len(log) >= page["log_total"]:
            return log


@pytest.mark.parametrize("how", ["handed", "resigned"])
async def test_a_seat_given_to_a_bot_keeps_its_person_and_no_seat_is_renamed(grace_server, how):
    """Bob, a Greedy bot seated at creation, and Ann: Ann's seat goes to the fallback bot
    (Bob hands it over after the grace, or she resigns). The seated Greedy stays "Greedy"
    (it became "Greedy 2"), and Ann's seat reads "Ann — played by Greedy" in the seats, the
    log, the result lines, the replay, the record and My games, after a restart too."""
    bob, ann = Client(grace_server, "Bob"), Client(grace_server, "Ann")
    table_id = bob.new_table("slide", ["me", "greedy", "open"])["id"]
    ann.post(f"/api/tables/{table_id}/join")
    hers, mine = await ann.connect(table_id), await bob.connect(table_id)
    before = await mine.until(lambda s: s["table"]["status"] == "running")
    assert [s["name"] for s in before["table"]["seats"]] == ["Bob", "Greedy", "Ann"]
    if how == "handed":
        await hers.close()
        await until_gone(bob, table_id, 2)
        await asyncio.sleep(GRACE + 0.1)
        assert hand(bob, table_id, 2).status_code == 200
    else:
        assert ann.post(f"/api/tables/{table_id}/resign")["outcome"] == "bot"
        await hers.close()
    after = await mine.until(lambda s: s["table"]["seats"][2]["bot"] == "greedy")
    seats = [(s["name"], s["bot"], s.get("person")) for s in after["table"]["seats"]]
    assert seats == [("Bob", None, None), ("Greedy", "greedy", None), ("Greedy", "greedy", "Ann")]
    await play_greedy(mine)
    over = await mine.until(lambda s: s["table"]["status"] == "over")
    await mine.close()
    assert any(
        line.startswith("#") and "Ann — played by Greedy:" in line
        for line in over["ending"]["lines"]
    ), over["ending"]
    whole = await replay_log(bob, table_id)
    log = [e for e in whole if not e.get("news")]  # the moves, not the scoring
    assert {e["who"] for e in log if e["seat"] == 1} == {"Greedy (bot)"}
    assert {e["who"] for e in log if e["seat"] == 2} == {"Ann — played by Greedy"}
    assert all(e["text"].startswith("Ann — played by Greedy ") for e in log if e["seat"] == 2)
    record = bob.http.get(f"/api/tables/{table_id}/record").json()
    assert record["played_by"][1:] == [
        [{"name": "Greedy", "bot": "greedy", "person": None, "from": 0}],
        [{"name": "Greedy", "bot": "greedy", "person": "Ann", "from": 0}],
    ]
    mine_now = bob.http.get("/api/my-games").json()["finished"]
    assert mine_now[0]["opponents"] == ["Greedy", "Ann — played by Greedy"]
    if how == "resigned":  # hers too, from her side
        assert ann.http.get("/api/my-games").json()["finished"][0]["opponents"] == ["Bob", "Greedy"]
    info = bob.http.get(f"/api/tables/{table_id}").json()
    grace_server.restart()  # the names are stored, not recomputed from who sits where
    again = bob.http.get(f"/api/tables/{table_id}").json()
    assert (
        [(s["name"], s["person"]) for s in again["seats"]]
        == [(s["name"], s["person"]) for s in info["seats"]]
        == [("Bob", None), ("Greedy", None), ("Greedy", "Ann")]
    )
    assert await replay_log(bob, table_id) == whole


async def test_every_page_is_told_when_a_seat_may_go_to_a_bot(grace_server):
    """Ann closes her page: Bob's socket hears it with the seconds until her seat may be
    handed to a bot (``hand_over_in``), the table info counts them down, and the server
    takes the hand-over once they are 0, never before."""
    bob, ann = Client(grace_server, "Bob"), Client(grace_server, "Ann")
    table_id, hers = await table_with_ann(bob, ann)
    mine = await bob.connect(table_id)
    first = await mine.until(lambda s: True)
    assert first["table"]["seats"][1]["hand_over_in"] is None  # she is at the table
    await asyncio.sleep(0.7)  # (presence is told every 0.5 s: her arrival, then her leaving)
    await hers.close()
    while True:  # the presence event says it, with nothing else
        event = await mine.recv()
        if event["type"] == "presence" and event["seat"] == 1 and not event["connected"]:
            break
    assert event["connected"] is False and 0 < event["hand_over_in"] <= GRACE
    info = bob.http.get(f"/api/tables/{table_id}").json()
    left = info["seats"][1]["hand_over_in"]
    assert 0 < left <= event["hand_over_in"]
    assert info["seats"][0]["hand_over_in"] is None  # Bob (no socket of his closed) is here
    refused = hand(bob, table_id, 1)
    assert refused.status_code == 409 and refused.json()["retry_after"] <= left + 0.2
    await asyncio.sleep(left + 0.05)
    assert bob.http.get(f"/api/tables/{table_id}").json()["seats"][1]["hand_over_in"] == 0
    assert hand(bob, table_id, 1).status_code == 200
    await mine.close()
