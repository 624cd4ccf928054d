"""Tournaments on a real server: created, entered, run by the server by itself to their
standings, with real websocket clients (bot accounts through the reference client)."""

from __future__ import annotations

import asyncio
import itertools
import json
from fractions import Fraction

import httpx
import pytest
import websockets

from cardtable.botclient import BotClient
from server.conftest import Client
from server.test_bot_accounts import as_bot, make_bot_account

pytestmark = pytest.mark.asyncio


def swiss(person: Client, **settings) -> dict:
    body = {"name": "Friday Slide", "game": "slide", "rounds": 3, "table_size": 3}
    return person.post("/api/tournaments", {**body, "starts_in": 3600, **settings})


async def until_over(server, tournament_id: str, timeout: float = 240) -> dict:
    deadline = asyncio.get_running_loop().time() + timeout
    async with httpx.AsyncClient(base_url=server.base) as http:
        while True:
            info = (await http.get(f"/api/tournaments/{tournament_id}")).json()
            if info["status"] == "over":
                return info
            assert asyncio.get_running_loop().time() < deadline, (
                info["status"],
                info["round_list"],
            )
            await asyncio.sleep(0.5)


async def test_a_swiss_of_nine_bot_accounts_plays_three_rounds_to_its_standings(server, people):
    ann, bob = people("Ann"), people("Bob")
    tokens = [make_bot_account(ann, f"Ann bot {i}")[1] for i in range(5)]
    tokens += [make_bot_account(bob, f"Bob bot {i}")[1] for i in range(4)]
    made = swiss(ann, bots=True)
    for token in tokens:
        with as_bot(server, token) as bot:
            assert bot.post(f"/api/tournaments/{made['id']}/enter", json={}).status_code == 200
    assert ann.http.get(f"/api/tournaments/{made['id']}").json()["entrants"] == 9
    ann.post(f"/api/tournaments/{made['id']}/start")
    clients = [
        BotClient(server.base, t, "greedy", games=3, timeout=30, say=lambda s: None) for t in tokens
    ]
    played = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 240)
    assert all(len(games) == 3 for games in played)
    info = await until_over(server, made["id"])
    assert info["round"] == 3 and [r["number"] for r in info["round_list"]] == [1, 2, 3]
    table = info["standings"]
    assert [line["place"] for line in table] == list(range(1, 10))
    assert all(line["bot_account"] and line["games"] == 3 for line in table)
    # every table gives half a point a seat: 9 entrants over 3 rounds share 13½
    total = sum(Fraction(line["points"]).limit_denominator(60) for line in table)
    assert total == Fraction(27, 2)
    assert all(a["points"] >= b["points"] for a, b in itertools.pairwise(table))
    # nine at tables of three over three rounds: nobody need meet anyone twice, and nobody did
    pairs = [
        frozenset(p)
        for rnd in info["round_list"]
        for t in rnd["tables"]
        for p in itertools.combinations(t["players"], 2)
    ]
    assert len(pairs) == len(set(pairs)) == 27
    # every game's replay is there, and unrated as the tournament is not
    for rnd in info["round_list"]:
        for t in rnd["tables"]:
            assert t["status"] == "over" and sorted(t["places"])[0] == 1
            assert ann.http.get(f"/api/tables/{t['table_id']}/replay?step=0").status_code == 200


async def test_the_page_follows_a_tournament_over_its_socket(server, people):
    ann, bob, cy = people("Ann"), people("Bob"), people("Cy")
    made = swiss(ann, table_size=2, rounds=1)
    # no clock chosen: a move clock all the same (an absent player's seat goes to a bot)
    assert made["clock"] == {"mode": "move", "seconds": 120}
    url = f"ws://127.0.0.1:{server.port}/ws/tournaments/{made['id']}?token={bob.token}"
    async with websockets.connect(url) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert first["type"] == "tournament" and first["tournament"]["entrants"] == 0
        bob.post(f"/api/tournaments/{made['id']}/enter")
        entered = json.loads(await asyncio.wait_for(ws.recv(), 10))["tournament"]
        assert entered["entered"] and entered["standings"][0]["you"]
        cy.post(f"/api/tournaments/{made['id']}/enter")
        ann.post(f"/api/tournaments/{made['id']}/start")
        while True:  # the round is paired: Bob's next table is named
            info = json.loads(await asyncio.wait_for(ws.recv(), 10))["tournament"]
            if info["next_table"]:
                break
    table = bob.http.get(f"/api/tables/{info['next_table']}").json()
    assert table["tournament"] == made["id"] and table["status"] == "running"
    assert [s["you"] for s in table["seats"]].count(True) == 1
    assert sorted(s["name"] for s in table["seats"]) == ["Bob", "Cy"]


async def test_too_few_entrants_cancel_a_tournament_at_its_start(server, people):
    ann, bob = people("Ann"), people("Bob")
    made = swiss(ann)
    bob.post(f"/api/tournaments/{made['id']}/enter")
    ann.post(f"/api/tournaments/{made['id']}/start")
    info = await until_over(server, made["id"], timeout=20)
    assert info["ended"] == "cancelled" and info["round_list"] == []


async def test_entries_are_refused_as_the_organiser_said(server, people):
    ann, bob = people("Ann"), people("Bob")
    _bot, token = make_bot_account(bob, "Bobby")
    people_only = swiss(ann)
    with as_bot(server, token) as bot:
        refused = bot.post(f"/api/tournaments/{people_only['id']}/enter", json={})
    assert refused.status_code == 403 and refused.json()["error"] == "no_bots"
    private = swiss(ann, invite_only=True)
    listed = ann.http.get("/api/tournaments").json()["tournaments"]
    assert private["invite"] and [t for t in listed if not t["daily"]] == [
        {**{k: v for k, v in people_only.items() if k in LISTED}, "entrants": 0}
    ]
    wrong = bob.http.post(f"/api/tournaments/{private['id']}/enter", json={"invite": "nope"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad_invite"
    seen = bob.http.get(f"/api/tournaments/{private['id']}").json()
    assert seen["invite"] is None  # only its creator sees the code
    bob.post(f"/api/tournaments/{private['id']}/enter", {"invite": private["invite"]})
    veterans = swiss(ann, min_games=1)
    few = bob.http.post(f"/api/tournaments/{veterans['id']}/enter", json={})
    assert few.status_code == 403 and few.json()["error"] == "too_few_games"
    assert "1 finished game" in few.json()["message"]
    swiss(ann), swiss(ann)  # five not over: the most one person may have
    over = ann.http.post("/api/tournaments", json={"name": "x", "game": "slide"})
    assert over.status_code == 429 and over.json()["error"] == "too_many_tournaments"
    started = bob.http.post(f"/api/tournaments/{private['id']}/start", json={})
    assert started.status_code == 403 and started.json()["error"] == "forbidden"
    gone = bob.http.post(f"/api/tournaments/{veterans['id']}/withdraw", json={})
    assert gone.status_code == 409 and gone.json()["error"] == "not_entered"


async def test_a_tournament_is_only_for_games_against_each_other_at_their_sizes(server, people):
    ann = people("Ann")
    for body, code in [
        ({"game": "the-game"}, "bad_request"),
        ({"game": "doublets"}, "bad_request"),
        ({"game": "slide", "table_size": 7}, "bad_request"),
        ({"game": "slide", "rounds": 16}, "bad_request"),
        ({"game": "slide", "clock": {"mode": "move", "seconds": 1}}, "bad_clock"),
        ({"game": "chess"}, "bad_request"),
    ]:
        answer = ann.http.post("/api/tournaments", json={"name": "t", **body})
        assert answer.status_code in (400, 422) and answer.json()["error"] == code, body
    assert ann.http.get("/api/tournaments/nosuch").json()["error"] == "not_found"
    blank = ann.http.post("/api/tournaments", json={"name": "\u0000 \u200b", "game": "slide"})
    assert blank.status_code == 400 and blank.json()["error"] == "bad_request"
    tidied = ann.post("/api/tournaments", {"name": "Cup\u0000 \u202e Final", "game": "slide"})
    assert tidied["name"] == "Cup Final"
    private = ann.post("/api/tournaments", {"name": "Club", "game": "slide", "invite_only": True})
    odd = ann.http.post(f"/api/tournaments/{private['id']}/enter", json={"invite": "é\u0000"})
    assert odd.status_code == 403 and odd.json()["error"] == "bad_invite"


LISTED = {
    "daily",
    "ends_at",
    "id",
    "name",
    "game",
    "title",
    "format",
    "status",
    "ended",
    "starts_at",
    "rounds",
    "round",
    "invite_only",
}


async def test_an_arena_of_six_seats_whoever_is_free_until_its_end(server, people):
    """Six bot accounts, a one-minute arena at tables of two: whoever finishes is seated
    again at once; once the minute is over no game is seated, the last ones are played out,
    and the standings add up each one's games with their streaks."""
    ann, bob = people("Ann"), people("Bob")
    tokens = [make_bot_account(ann, f"Ann arena {i}")[1] for i in range(3)]
    tokens += [make_bot_account(bob, f"Bob arena {i}")[1] for i in range(3)]
    made = ann.post(
        "/api/tournaments",
        {
            "name": "Blitz",
            "game": "slide",
            "format": "arena",
            "minutes": 1,
            "table_size": 2,
            "starts_in": 3600,
            "bots": True,
        },
    )
    assert made["format"] == "arena" and made["minutes"] == 1 and made["rounds"] == 0
    for token in tokens:
        with as_bot(server, token) as bot:
            assert bot.post(f"/api/tournaments/{made['id']}/enter", json={}).status_code == 200
    ann.post(f"/api/tournaments/{made['id']}/start")
    clients = [BotClient(server.base, t, "greedy", timeout=30, say=lambda s: None) for t in tokens]
    playing = [asyncio.create_task(c.run()) for c in clients]
    try:
        info = await until_over(server, made["id"], timeout=150)
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
    games = [t for r in info["round_list"] for t in r["tables"]]
    assert len(info["round_list"]) > 3 and len(games) > 6, info["round_list"]
    assert all(t["status"] == "over" and t["places"] is not None for t in games)
    table = info["standings"]
    assert sum(line["games"] for line in table) == 2 * len(games)
    assert all(line["games"] >= 2 for line in table)
    # each one's points: 1 a win, 0 a loss (½ each for a tie), doubled after two wins in a row
    for line in table:
        mine = [t for t in games if line["name"] in t["players"]]
        run, points = 0, 0.0
        for t in mine:
            place = t["places"][t["players"].index(line["name"])]
            earned = 1.0 if place == 1 and t["places"].count(1) == 1 else 0.5 if place == 1 else 0.0
            points += earned * (2 if run >= 2 else 1)
            run = run + 1 if place == 1 else 0
        assert line["points"] == pytest.approx(points), (line, mine)
    assert [line["points"] for line in table] == sorted((x["points"] for x in table), reverse=True)
    # nobody is seated after the end: every game began before it (ISO 8601 in UTC sort as time)
    assert all(r["started_at"] <= info["ends_at"] for r in info["round_list"])
    assert info["finished_at"] >= info["ends_at"]


async def finish_alone(client: Client, table_id: str, game: str) -> None:
    """Play one's solitaire with the greedy policy; one left with no move is resigned."""
    from helpers import play_with_greedy

    sock = await client.connect(table_id)
    state = await play_with_greedy(sock, game, timeout=60)
    await sock.close()
    assert state["tools"] == [] and state["table"]["seed"] is None  # no undo, no deal number
    if state["table"]["status"] != "over":
        client.post(f"/api/tables/{table_id}/resign")


async def test_a_duplicate_challenge_deals_every_entry_the_same_secret_deals(server, people):
    ann, bob, cy = people("Ann"), people("Bob"), people("Cy")
    made = ann.post(
        "/api/tournaments",
        {
            "name": "Same deals",
            "game": "doublets",
            "format": "duplicate",
            "deals": 2,
            "table_size": 1,
            "minutes": 60,
            "starts_in": 3600,
        },
    )
    assert made["deals"] == 2 and "seeds" not in made
    for person in (bob, cy):
        person.post(f"/api/tournaments/{made['id']}/enter")
    ann.post(f"/api/tournaments/{made['id']}/start")

    async def next_table(person: Client) -> str:
        for _ in range(100):
            info = person.http.get(f"/api/tournaments/{made['id']}").json()
            if info["next_table"]:
                return str(info["next_table"])
            await asyncio.sleep(0.2)
        raise AssertionError(info)

    first = await next_table(bob)
    for tool in ("undo", "restart"):  # nobody plays a challenge's deal twice, nor takes back
        refused = bob.http.post(f"/api/tables/{first}/{tool}", json={})
        assert refused.status_code == 403 and refused.json()["error"] == "not_offered"
    hint = bob.http.get(f"/api/tables/{first}/hint")
    assert hint.status_code == 403 and hint.json()["error"] == "not_offered"
    await finish_alone(bob, first, "doublets")
    # Bob's deal is over, the challenge is not: nothing of it reaches anyone, Bob included
    for who in (cy, bob, ann):
        for path in (
            f"/api/tables/{first}/record",
            f"/api/tables/{first}/replay?step=0",
            f"/api/tables/{first}/review",
        ):
            answer = who.http.get(path)
            assert answer.status_code == 403 and answer.json()["error"] == "challenge_secret"
        asked = who.http.post(f"/api/tables/{first}/review", json={})
        assert asked.status_code == 403 and asked.json()["error"] == "challenge_secret"
        tried = who.http.post(f"/api/tables/{first}/practice", json={"step": 0})
        assert tried.status_code == 403 and tried.json()["error"] == "challenge_secret"
    second = await next_table(bob)
    assert second != first
    for token in (cy.token, None):  # nobody watches an entry's deal being played
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{second}" + (
            f"?token={token}" if token else ""
        )
        async with websockets.connect(url) as ws:
            said = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert said["type"] == "error" and said["code"] == "challenge_secret"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd.code == 4403
    await finish_alone(bob, second, "doublets")
    cy_tables = [await next_table(cy)]
    await finish_alone(cy, cy_tables[0], "doublets")
    cy_tables.append(await next_table(cy))
    await finish_alone(cy, cy_tables[1], "doublets")
    info = await until_over(server, made["id"], timeout=30)
    # over: the deals are public now, and they were the same for both
    seeds = {}
    for person, mine in ((bob, [first, second]), (cy, cy_tables)):
        seeds[person.id] = [person.http.get(f"/api/tables/{t}/record").json()["seed"] for t in mine]
    assert seeds[bob.id] == seeds[cy.id] and seeds[bob.id][0] != seeds[bob.id][1]
    lines = info["standings"]
    assert [line["deals_done"] for line in lines] == [2, 2]
    assert lines[0]["points"] >= lines[1]["points"]  # Doublets: the most cards on the foundation
    assert {line["name"] for line in lines} == {"Bob", "Cy"}


async def test_the_server_opens_each_days_deal_of_the_day_by_itself(server, people):
    """Doublets' and The Game's (played alone) deal of the day, open to all from midnight
    to midnight UTC: a person plays it whenever they come, and it waits for the day's end."""
    import datetime as dt

    bob = people("Bob")
    today = dt.datetime.now(dt.UTC).date().isoformat()
    for _ in range(50):
        listed = bob.http.get("/api/tournaments").json()["tournaments"]
        daily = {t["game"]: t for t in listed if t["daily"] == today and t["status"] == "running"}
        if len(daily) == 2:
            break
        await asyncio.sleep(0.2)
    assert set(daily) == {"doublets", "the-game"}, listed
    day = daily["doublets"]
    tomorrow = dt.date.fromisoformat(today) + dt.timedelta(days=1)
    assert day["format"] == "duplicate" and day["ends_at"] == f"{tomorrow}T00:00:00Z"
    bob.post(f"/api/tournaments/{day['id']}/enter")  # a late entry: it began at midnight
    for _ in range(50):
        info = bob.http.get(f"/api/tournaments/{day['id']}").json()
        if info["next_table"]:
            break
        await asyncio.sleep(0.2)
    await finish_alone(bob, info["next_table"], "doublets")
    for _ in range(50):
        info = bob.http.get(f"/api/tournaments/{day['id']}").json()
        if info["standings"] and info["standings"][0]["deals_done"] == 1:
            break
        await asyncio.sleep(0.2)
    line = info["standings"][0]
    assert line["you"] and line["days_in_a_row"] == 1 and info["status"] == "running"
    secret = bob.http.get(f"/api/tables/{info['round_list'][0]['tables'][0]['table_id']}/record")
    assert secret.json()["error"] == "challenge_secret"  # until the day is over
    mine = bob.http.get("/api/me/tournaments").json()["tournaments"]
    assert [t["id"] for t in mine] == [day["id"]]


async def test_days_in_a_row_count_the_days_a_person_played_the_deal_of_the_day(tmp_path):
    import datetime as dt

    from cardtable.server.storage import store as db
    from cardtable.server.storage.tournaments import TournamentRow, TournamentStore
    from cardtable.server.tournaments.runner import daily_id

    store = db.Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    bob, _token = store.new_player("Bob")
    rows = TournamentStore(store.engine)
    today = dt.date(2026, 12, 4)
    for back in (0, 1, 2, 4):  # today, the two days before, and one a gap before those
        day = today - dt.timedelta(days=back)
        row = TournamentRow(
            id=daily_id("doublets", day),
            name="Doublets",
            game="doublets",
            format="duplicate",
            status="running",
            created_by=None,
            created_at=db.now(),
            starts_at=dt.datetime.combine(day, dt.time()),
            rounds=0,
            minutes=1440,
            deals=1,
            seeds=[1],
            daily=day.isoformat(),
            table_size=1,
            clock=None,
            options={},
            rated=False,
            invite=None,
            min_games=0,
            bots=False,
            round=0,
            version=0,
        )
        assert rows.create(row) and not rows.create(row)  # (a second process: stored once)
        rows.enter(row.id, bob.id, 10)
    assert rows.daily_streaks("doublets", today, [bob.id]) == {bob.id: 3}
    assert rows.daily_streaks("the-game", today, [bob.id]) == {bob.id: 0}
    store.close()


async def test_a_tournament_page_has_a_bounded_number_of_followers(server, people, monkeypatch):
    from cardtable.server.web.routes import tournaments as routes

    monkeypatch.setattr(routes, "MAX_WATCHERS", 2)
    ann = people("Ann")
    made = swiss(ann)
    url = f"ws://127.0.0.1:{server.port}/ws/tournaments/{made['id']}"
    async with websockets.connect(url) as one, websockets.connect(url) as two:
        for ws in (one, two):
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "tournament"
        async with websockets.connect(url) as three:
            said = json.loads(await asyncio.wait_for(three.recv(), 10))
            assert said["type"] == "error" and said["code"] == "too_many_watchers"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(three.recv(), 10)
            assert closed.value.rcvd.code == 4029
    for _ in range(20):  # the two went (once the server has seen them go): room again
        async with websockets.connect(url) as again:
            said = json.loads(await asyncio.wait_for(again.recv(), 10))
        if said["type"] == "tournament":
            break
        await asyncio.sleep(0.1)
    assert said["type"] == "tournament", said
