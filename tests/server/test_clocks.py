"""Clocks and turn-based play, against a real server with real websocket clients: the
creator's choice is checked, every seat's deadline comes from the server, a person out of
time (or away too long at a real-time table) is replaced by the fallback bot and the table
is told, they take the seat back on their return, and the deadlines survive a restart.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from server.conftest import PG, Client, Server, fresh_pg_database

#: SQLite, and PostgreSQL where the tests have one (as conftest's ``server``)
DATABASES = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not PG, reason="no PostgreSQL: set CARDTABLE_TEST_PG_URL to run these against one"
        ),
    ),
]


def clock_server_for(tmp_path: Path, grace: float = 30.0, database: str = "sqlite") -> Server:
    """A server whose clocks may be as short as a second (``--min-clock``)."""
    url = (
        f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
        if database == "sqlite"
        else fresh_pg_database(PG or "")
    )
    return Server(url, tmp_path, ["--min-clock", "1", "--seat-grace", str(grace)])


@pytest.fixture(params=DATABASES)
def database(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def clock_server(tmp_path: Path, database: str):
    srv = clock_server_for(tmp_path, database=database)
    srv.start()
    yield srv
    srv.kill()


def new_table(client: Client, seats: list[str], clock: dict | None) -> dict:
    answer = client.http.post("/api/tables", json={"game": "slide", "seats": seats, "clock": clock})
    assert answer.status_code == 200, answer.text
    return answer.json()


def seated_pair(server: Server, clock: dict) -> tuple[Client, Client, str]:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    table = new_table(ann, ["me", "open"], clock)
    assert bob.post(f"/api/tables/{table['id']}/join", {"seat": 1})["seat"] == 1
    return ann, bob, table["id"]


@pytest.mark.parametrize(
    ("clock", "why"),
    [
        ({"mode": "blitz", "seconds": 60}, "one of none"),
        ({"mode": "move", "seconds": 5}, "30 s to 10 min"),
        ({"mode": "move", "seconds": 601}, "30 s to 10 min"),
        ({"mode": "game", "seconds": 7200}, "5 min to 1 h"),
        ({"mode": "turn", "seconds": 600}, "1 h to 7 days"),
        ({"mode": "turn", "seconds": 8 * 86400}, "1 h to 7 days"),
    ],
)
def test_a_clock_out_of_its_limits_is_refused_with_a_typed_error(people, clock, why):
    ann = people("Ann")
    answer = ann.http.post(
        "/api/tables", json={"game": "slide", "seats": ["me", "open"], "clock": clock}
    )
    assert answer.status_code in (400, 422), answer.text
    body = answer.json()
    assert body["error"] in ("bad_clock", "bad_request")
    if answer.status_code == 400:
        assert body["error"] == "bad_clock" and why in body["message"]


def test_a_game_played_alone_has_no_clock_and_the_defaults_apply(people):
    ann = people("Ann")
    alone = ann.http.post(
        "/api/tables", json={"game": "doublets", "seats": ["me"], "clock": {"mode": "move"}}
    )
    assert alone.status_code == 400 and alone.json()["error"] == "bad_clock"
    untimed = new_table(ann, ["me", "greedy"], None)
    assert untimed["clock"] is None and untimed["your_deadline"] is None
    before = time.time()
    timed = new_table(ann, ["me", "greedy"], {"mode": "turn"})  # default: a day a move
    assert timed["clock"]["mode"] == "turn" and timed["clock"]["seconds"] == 86400
    mine = timed["clock"]["seats"][0]["deadline"]
    assert before + 86400 - 5 < mine < time.time() + 86400 + 5
    assert timed["your_deadline"] == mine
    assert timed["clock"]["seats"][1]["deadline"] is None  # bots have no clock
    # the lobby's rows carry it too, for "My games"
    row = next(t for t in ann.http.get("/api/tables").json() if t["id"] == timed["id"])
    assert row["your_deadline"] == mine


async def test_a_player_out_of_time_is_replaced_and_takes_the_seat_back(clock_server):
    ann, bob, table_id = seated_pair(clock_server, {"mode": "move", "seconds": 2})
    a, b = await ann.connect(table_id), await bob.connect(table_id)
    start = await a.until(lambda s: s["table"]["status"] == "running")
    seats = start["table"]["clock"]["seats"]
    assert seats[0]["deadline"] and seats[1]["deadline"]  # the reveal: both to move
    assert abs(seats[0]["deadline"] - start["table"]["clock"]["now"] - 2) < 1.5
    assert (await b.until(lambda s: True))["table"]["your_deadline"] == seats[1]["deadline"]
    assert (await a.act(start["legal"][0]))["type"] == "ack"
    after = await a.until(lambda s: s["table"]["clock"]["seats"][0]["deadline"] is None)
    assert after["table"]["your_deadline"] is None  # Ann chose: her time stopped
    # Bob lets his time run out: the fallback bot plays for him, and the table is told
    told = await a.until(lambda s: s["table"]["seats"][1]["bot"] == "greedy", timeout=10)
    assert "Bob ran out of time; Greedy plays for Bob" in told["table"]["notices"]
    watching = await b.until(lambda s: s["seat"] is None, timeout=10)
    assert watching["table"]["seats"][1]["you_away"] is True
    assert "you_away" not in told["table"]["seats"][1] or not told["table"]["seats"][1]["you_away"]
    # the bot's moves have no clock; Bob comes back (opens the page again): his seat again
    await b.close()
    back = await bob.connect(table_id)
    state = await back.until(lambda s: s["seat"] == 1)
    assert state["table"]["seats"][1]["name"] == "Bob" and not state["table"]["seats"][1]["bot"]
    assert "Bob is back and plays again" in state["table"]["notices"]
    await a.close()
    await back.close()


async def test_an_action_after_the_time_ran_out_is_refused_by_the_server(clock_server):
    ann, bob, table_id = seated_pair(clock_server, {"mode": "move", "seconds": 1})
    b = await bob.connect(table_id)
    state = await b.until(lambda s: s["table"]["status"] == "running")
    legal = state["legal"][0]
    await b.until(lambda s: s["seat"] is None, timeout=10)  # the server took the seat
    answer = await b.act(legal)
    assert answer["type"] == "error" and answer["code"] == "not_seated"
    await b.close()


@pytest.mark.perf
async def test_a_per_game_clock_keeps_what_a_move_did_not_use(clock_server):
    ann, bob, table_id = seated_pair(clock_server, {"mode": "game", "seconds": 20})
    a = await ann.connect(table_id)
    state = await a.until(lambda s: s["table"]["status"] == "running")
    await asyncio.sleep(1.0)
    assert (await a.act(state["legal"][0]))["type"] == "ack"
    after = await a.until(lambda s: s["table"]["clock"]["seats"][0]["deadline"] is None)
    left = after["table"]["clock"]["seats"][0]["left"]
    assert 17.5 < left < 19.5, left
    assert after["table"]["clock"]["seats"][1]["deadline"] is not None
    await a.close()


async def test_a_real_time_player_who_stays_away_is_replaced_after_the_grace(tmp_path, database):
    srv = clock_server_for(tmp_path, grace=1.0, database=database)
    srv.start()
    try:
        ann, bob, table_id = seated_pair(srv, {"mode": "move", "seconds": 60})
        a = await ann.connect(table_id)
        b = await bob.connect(table_id)
        await b.until(lambda s: s["seat"] == 1)
        await b.close()  # Bob leaves while it is his turn
        told = await a.until(lambda s: s["table"]["seats"][1]["bot"] == "greedy", timeout=10)
        assert "Bob stayed away; Greedy plays for Bob" in told["table"]["notices"]
        await a.close()
    finally:
        srv.kill()


async def test_turn_based_tables_wait_for_nobody_and_deadlines_survive_a_restart(
    tmp_path, database
):
    srv = clock_server_for(tmp_path, database=database)
    srv.start()
    try:
        ann, bob, table_id = seated_pair(srv, {"mode": "turn", "seconds": 15})
        info = ann.http.get(f"/api/tables/{table_id}").json()
        deadline = info["clock"]["seats"][1]["deadline"]
        assert bob.http.get(f"/api/tables/{table_id}").json()["your_deadline"] == deadline
        # My games lists it under "your turn" with the time the move is due
        (mine,) = bob.http.get("/api/my-games").json()["unfinished"]
        assert mine["your_turn"] and mine["your_deadline"] == deadline
        # nobody is connected: a turn-based table waits, and a restart keeps the deadline
        srv.restart()
        info = ann.http.get(f"/api/tables/{table_id}").json()
        assert info["clock"]["seats"][1]["deadline"] == deadline
        assert info["seats"][1]["name"] == "Bob"
        # the server, not a client, sees the time run out
        for _ in range(300):
            info = ann.http.get(f"/api/tables/{table_id}").json()
            if info["seats"][1]["bot"] and info["seats"][0]["bot"]:
                break
            await asyncio.sleep(0.1)
        assert info["seats"][1]["bot"] == "greedy", info
        assert any("Bob ran out of time" in n for n in info["notices"])
        assert time.time() >= deadline
        # Ann's seat too: both were to move; now she takes hers back with a join
        back = ann.post(f"/api/tables/{table_id}/join", {"seat": 0})
        assert back["seat"] == 0 and back["table"]["seats"][0]["name"] == "Ann"
    finally:
        srv.kill()


async def test_a_restart_finds_a_table_whose_time_ran_out_meanwhile(tmp_path, database):
    srv = clock_server_for(tmp_path, database=database)
    srv.start()
    try:
        ann, bob, table_id = seated_pair(srv, {"mode": "turn", "seconds": 2})
        srv.kill()
        await asyncio.sleep(2.5)  # the deadline passes while no server runs
        srv.start()
        # the lobby loads no table: the server itself found this one at its start
        for _ in range(100):
            info = next(t for t in ann.http.get("/api/tables").json() if t["id"] == table_id)
            if info["seats"][1]["bot"]:
                break
            await asyncio.sleep(0.1)
        assert info["seats"][1]["bot"] == "greedy", info
    finally:
        srv.kill()


# -- the clock and the ratings: letting it run out is resigning, unless you come back -------


def leaderboard(client: Client) -> dict[str, dict]:
    board = client.http.get("/api/leaderboard", params={"game": "slide"}).json()
    return {r["name"]: r for r in board}


async def bobs_seat_goes_to_the_bot(
    srv: Server, why: str
) -> tuple[Client, Client, str, object, object]:
    """Ann and Bob at a rated Slide table with a 3 s move clock; Ann moves, Bob lets his
    time run out (or closes his page and stays away past the grace): the bot plays for him.
    (Ann, Bob, the table, Ann's socket, Bob's socket, now watching or closed.)"""
    ann, bob, table_id = seated_pair(srv, {"mode": "move", "seconds": 3})
    a, b = await ann.connect(table_id), await bob.connect(table_id)
    start = await a.until(lambda s: s["table"]["status"] == "running" and s["legal"])
    await b.until(lambda s: s["seat"] == 1)
    if why == "stayed away":
        await b.close()
    assert (await a.act(start["legal"][0]))["type"] == "ack"
    told = await a.until(lambda s: s["table"]["seats"][1]["bot"] == "greedy", timeout=15)
    assert f"Bob {why}; Greedy plays for Bob" in told["table"]["notices"]
    return ann, bob, table_id, a, b


@pytest.mark.parametrize("why", ["ran out of time", "stayed away"])
async def test_a_player_the_clock_replaced_who_never_returns_is_rated_last(tmp_path, database, why):
    from helpers import play_with_greedy

    srv = clock_server_for(tmp_path, grace=1.0 if why == "stayed away" else 30.0, database=database)
    srv.start()
    try:
        ann, bob, table_id, a, b = await bobs_seat_goes_to_the_bot(srv, why)
        await b.close()  # Bob never comes back; Ann plays on against the bot to the end
        final = await play_with_greedy(a, "slide")
        await a.close()
        assert final["table"]["status"] == "over"
        board = leaderboard(ann)
        # rated as if Bob had resigned: last, whatever the bot scored in his seat, and the
        # bot that played for him is not rated
        assert board["Bob"]["games"] == 1 and board["Ann"]["games"] == 1, board
        assert board["Bob"]["mu"] < board["Ann"]["mu"], board
        assert "Greedy bot" not in board
        (game,) = bob.http.get("/api/my-games").json()["finished"]
        assert game["id"] == table_id and game["seat"] == 1
        assert "2nd" in game["verdict"], game  # Bob finds the game, and his place, on /me
    finally:
        srv.kill()


async def test_a_player_who_comes_back_and_finishes_is_rated_by_the_result(clock_server):
    from helpers import play_with_greedy

    ann, bob, table_id, a, b = await bobs_seat_goes_to_the_bot(clock_server, "ran out of time")
    await b.close()
    back = await bob.connect(table_id)  # Bob is back before the end: his seat again
    await back.until(lambda s: s["seat"] == 1)
    finals = await asyncio.gather(play_with_greedy(a, "slide"), play_with_greedy(back, "slide"))
    await a.close()
    await back.close()
    result = finals[0]["view"]["result"]
    assert finals[0]["table"]["status"] == "over"
    board = leaderboard(ann)
    assert board["Bob"]["games"] == 1 and board["Ann"]["games"] == 1, board
    # the game's own places decide (a draw: the same rating)
    ann_rank, bob_rank = result["ranks"]
    assert (board["Ann"]["mu"] > board["Bob"]["mu"]) == (ann_rank < bob_rank), (result, board)
    assert (board["Ann"]["mu"] == board["Bob"]["mu"]) == (ann_rank == bob_rank), (result, board)
    assert "Greedy bot" not in board


async def test_a_player_the_clock_replaced_who_resigns_does_not_take_the_seat_back(clock_server):
    ann, bob, table_id, a, b = await bobs_seat_goes_to_the_bot(clock_server, "ran out of time")
    await b.until(lambda s: s["table"]["seats"][1].get("you_away"))
    assert bob.post(f"/api/tables/{table_id}/resign")["outcome"] == "bot"
    await b.until(lambda s: not s["table"]["seats"][1].get("you_away"))  # no way back now
    await b.close()
    back = await bob.connect(table_id)  # opening the page again no longer takes the seat
    state = await back.until(lambda s: True)
    assert state["seat"] is None and state["table"]["seats"][1]["bot"] == "greedy"
    assert bob.post(f"/api/tables/{table_id}/resign")["outcome"] == "bot"  # and again
    await back.close()
    await a.close()


async def test_my_games_offers_a_seat_the_clock_took_back_and_a_resigned_one_to_watch(clock_server):
    """Issue #24: a seat the clock gave to a bot is still its person's to take back; once
    they resign, the game is theirs only to watch (never "Resume"), and no field is null
    where the page writes it."""
    ann, bob, table_id, a, b = await bobs_seat_goes_to_the_bot(clock_server, "ran out of time")
    (game,) = bob.http.get("/api/my-games").json()["unfinished"]
    assert game["id"] == table_id and game["you"] == "away" and game["seat"] == 1
    assert game["opponents"] == ["Ann"], game  # not the bot playing his own seat
    assert ann.http.get("/api/my-games").json()["unfinished"][0]["you"] == "seated"
    assert bob.post(f"/api/tables/{table_id}/resign")["outcome"] == "bot"
    (game,) = bob.http.get("/api/my-games").json()["unfinished"]
    assert game["you"] == "resigned" and not game["your_turn"], game
    assert "You resigned" in game["verdict"] and game["opponents"] == ["Ann"], game
    await b.close()
    await a.close()
