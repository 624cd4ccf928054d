"""Bot accounts: a person makes one with a token; a program plays with that token through the
same API as a person, through the reference client (``cardtable.botclient``), at the seats it
is invited to, at its own tables and at open seats; the lobby and the leaderboard mark it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import shlex
import sys
from pathlib import Path

import httpx
import pytest
import websockets

from cardtable import games
from cardtable.botclient import BotClient, ClientError
from cardtable.core.protocol import replay
from server.conftest import PG, Client, fresh_pg_database
from server.test_cluster import NO_REDIS, make_cluster, redis_url  # noqa: F401 (fixtures)

pytestmark = pytest.mark.asyncio
ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = "cmd:" + shlex.join([sys.executable, str(ROOT / "examples/bots/random_bot.py"), "3"])
EXPERT_PROGRAM = "cmd:" + shlex.join([sys.executable, "-m", "cardtable", "bot", "run", "expert"])


def as_bot(server, token: str) -> httpx.Client:
    """An HTTP client that sends the bot account's token as a program does (a header)."""
    return httpx.Client(base_url=server.base, timeout=10, headers={"X-Cardtable-Token": token})


def make_bot_account(person, name: str) -> tuple[str, str]:
    answer = person.post("/api/me/bots", {"name": name})
    return answer["bot"]["id"], answer["token"]


async def play(
    server, token: str, spec: str, games_: int, join: str | None = None, timeout: float = 120
) -> list[dict]:
    said: list[str] = []
    client = BotClient(
        server.base, token, spec, join=join, games=games_, timeout=30, say=said.append
    )
    try:
        return await asyncio.wait_for(client.run(), timeout)
    except TimeoutError:
        raise AssertionError(f"the client did not finish; it said: {said}") from None


async def test_a_person_makes_bot_accounts_and_renews_their_tokens(server, people):
    ann = people("Ann")
    bot_id, token = make_bot_account(ann, "Annbot")
    with as_bot(server, token) as bot:
        me = bot.get("/api/me").json()["player"]
        assert me == {"id": bot_id, "name": "Annbot", "bot": True}
        refused = bot.post("/api/me/bots", json={"name": "Grandchild"})
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
        renamed = bot.post("/api/me", json={"name": "Renamed"})  # named by its owner
        assert renamed.status_code == 403 and renamed.json()["error"] == "forbidden"
    assert ann.http.get("/api/me").json()["player"]["bot"] is False
    assert ann.http.get("/api/me/bots").json() == {
        "bots": [{"id": bot_id, "name": "Annbot", "plays_with": "owner"}]
    }
    new = ann.post(f"/api/me/bots/{bot_id}/token")["token"]
    with as_bot(server, token) as old, as_bot(server, new) as renewed:
        assert old.get("/api/me").json()["player"] is None  # the old token stopped working
        assert renewed.get("/api/me").json()["player"]["id"] == bot_id
    bob = people("Bob")
    for name, code in [("annbot", "name_taken"), ("Greedy", "reserved_name"), ("<b>", "bad_name")]:
        answer = bob.http.post("/api/me/bots", json={"name": name})
        assert answer.status_code in (400, 409) and answer.json()["error"] == code, answer.text
    assert bob.http.post(f"/api/me/bots/{bot_id}/token", json={}).status_code == 404  # his?
    for i in range(4):
        make_bot_account(bob, f"Bobbot{i}")
    make_bot_account(bob, "Bobbot4")
    answer = bob.http.post("/api/me/bots", json={"name": "Bobbot5"})
    assert answer.status_code == 409 and answer.json()["error"] == "too_many_bots"


async def test_only_the_creator_invites_and_only_to_an_open_seat(server, people):
    ann, eve = people("Ann"), people("Eve")
    make_bot_account(ann, "Seatbot")
    table = ann.new_table("slide", ["me", "open", "open"])
    answer = eve.http.post(f"/api/tables/{table['id']}/seats/1/invite", json={"bot": "Seatbot"})
    assert answer.status_code == 403
    answer = ann.http.post(f"/api/tables/{table['id']}/seats/0/invite", json={"bot": "Seatbot"})
    assert answer.status_code == 409 and answer.json()["error"] == "seat_taken"
    answer = ann.http.post(f"/api/tables/{table['id']}/seats/1/invite", json={"bot": "Nobot"})
    assert answer.status_code == 404
    info = ann.post(f"/api/tables/{table['id']}/seats/1/invite", {"bot": "Seatbot"})
    seat = info["seats"][1]
    assert (seat["name"], seat["taken"], seat["bot_account"], seat["bot"]) == (
        "Seatbot",
        True,
        True,
        None,
    )
    assert info["seats"][0]["bot_account"] is False
    lobby = ann.http.get("/api/tables", params={"status": "open"}).json()
    assert next(t for t in lobby if t["id"] == table["id"])["seats"][1]["bot_account"] is True


async def test_the_reference_client_refuses_a_persons_token(server, people):
    ann = people("Ann")
    with pytest.raises(ClientError, match="a person's account, not a bot account"):
        await play(server, ann.token, "greedy", 1)


async def test_a_bot_account_plays_each_game_through_the_reference_client(server, people):
    ann = people("Ann")
    bot_id, token = make_bot_account(ann, "Clientbot")
    # Slide: invited to a rated table against the server's greedy bot, played by a program
    slide = ann.new_table("slide", ["open", "greedy"])
    ann.post(f"/api/tables/{slide['id']}/seats/0/invite", {"bot": "Clientbot"})
    finished = await play(server, token, RANDOM_BOT, 1)
    assert [f["table"] for f in finished] == [slide["id"]]
    # The Game: invited, played by the built-in expert run as a program (events included)
    the_game = ann.new_table("the-game", ["greedy", "open"])
    ann.post(f"/api/tables/{the_game['id']}/seats/1/invite", {"bot": "Clientbot"})
    finished = await play(server, token, EXPERT_PROGRAM, 1)
    assert [f["table"] for f in finished] == [the_game["id"]]
    # Doublets: a table the bot account made itself, played by a built-in bot
    with as_bot(server, token) as bot:
        answer = bot.post("/api/tables", json={"game": "doublets", "seats": ["me"]})
        assert answer.status_code == 200, answer.text
        doublets = answer.json()
    finished = await play(server, token, "fair", 1)
    assert [f["table"] for f in finished] == [doublets["id"]]
    for table in (slide, the_game, doublets):
        info = ann.http.get(f"/api/tables/{table['id']}").json()
        assert info["status"] == "over", info
        record = ann.http.get(f"/api/tables/{table['id']}/record").json()
        state = replay(games.get(record["game"]), record)
        assert state.over
        assert any(s["bot_account"] and s["name"] == "Clientbot" for s in info["seats"])
    # rated like a person, marked as a bot, under its name
    board = ann.http.get("/api/leaderboard", params={"game": "slide"}).json()
    row = next(r for r in board if r["name"] == "Clientbot")
    assert row["bot"] is True and row["games"] == 1


async def test_a_bot_account_takes_an_open_seat_from_the_lobby(server, people):
    ann = people("Ann")
    _, token = make_bot_account(ann, "Joinbot")
    table = ann.new_table("the-game", ["greedy", "open"])
    finished = await play(server, token, "expert", 1, join="the-game")
    assert [f["table"] for f in finished] == [table["id"]]
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "over" and info["seats"][1]["name"] == "Joinbot"


# -- issue #23: a bot account's credentials, names and whom it plays with -------------------
def credential_rows(db_url: str, player_id: str) -> dict[str, int]:
    """How many recovery codes and browser tokens the database holds for a player."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            return {
                table: conn.execute(
                    text(f"SELECT count(*) FROM {table} WHERE player_id = :p"), {"p": player_id}
                ).scalar_one()
                for table in ("recovery_codes", "player_tokens")
            }
    finally:
        engine.dispose()


def plant_credentials(db_url: str, player_id: str) -> tuple[str, str]:
    """A recovery code and a browser token for the player, written as a server before
    #23 let a bot account's token make them (``POST /api/me/recovery``, then ``recover``)."""
    from cardtable.server.storage import store as db

    store = db.Store(db_url)
    try:
        code = store.new_recovery_code(player_id)
        browser = secrets.token_urlsafe(24)
        with store.session.begin() as s:
            s.add(db.PlayerToken(token_hash=db.token_hash(browser), player_id=player_id))
        return code, browser
    finally:
        store.close()


async def test_a_bot_account_gets_no_recovery_code_and_a_renewal_ends_every_credential(
    server, people
):
    ann = people("Ann")
    bot_id, token = make_bot_account(ann, "Leakbot")
    with as_bot(server, token) as bot:  # whoever holds the token cannot mint a lasting key
        refused = bot.post("/api/me/recovery", json={})
        assert refused.status_code == 403 and refused.json()["error"] == "bot_account"
    code, browser = plant_credentials(server.db_url, bot_id)  # as an older server allowed
    with httpx.Client(base_url=server.base, timeout=10) as other:
        assert other.post("/api/me/recover", json={"code": code}).status_code == 404
        assert other.post("/api/me/recover/whose", json={"code": code}).status_code == 404
    with as_bot(server, browser) as planted:
        assert planted.get("/api/me").json()["player"]["id"] == bot_id
    for _ in range(2):  # the owner renews the leaked token
        token = ann.post(f"/api/me/bots/{bot_id}/token")["token"]
    assert credential_rows(server.db_url, bot_id) == {"recovery_codes": 0, "player_tokens": 0}
    with as_bot(server, browser) as planted, as_bot(server, token) as renewed:
        assert planted.get("/api/me").json()["player"] is None
        assert renewed.get("/api/me").json()["player"]["id"] == bot_id


@pytest.mark.parametrize(
    "db",
    [
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(PG is None, reason="CARDTABLE_TEST_PG_URL is not set"),
        ),
    ],
)
async def test_the_upgrade_ends_the_codes_and_browser_tokens_bot_accounts_made(tmp_path, db):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from cardtable.server.storage import store as dbs

    url = f"sqlite:///{tmp_path / 'old.sqlite'}" if db == "sqlite" else fresh_pg_database(PG)
    engine = dbs.make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(dbs.__file__).parent / "migrations"))
    with engine.begin() as conn:  # a database as #14 left it, with what a leaked token made
        config.attributes["connection"] = conn
        command.upgrade(config, "0008_bot_accounts")
        conn.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at, bot_owner) "
                "VALUES ('ann', 'Ann', 'h1', '2026-12-01', NULL), "
                "('bot', 'Oldbot', 'h2', '2026-12-01', 'ann')"
            )
        )
        for table, column in (("recovery_codes", "code_hash"), ("player_tokens", "token_hash")):
            conn.execute(
                text(
                    f"INSERT INTO {table} (player_id, {column}, created_at) VALUES "
                    f"('ann', '{table}-ann', '2026-12-01'), "
                    f"('bot', '{table}-bot', '2026-12-01')"
                )
            )
    engine.dispose()
    dbs.Store(url).close()  # upgrades to the newest revision
    assert credential_rows(url, "bot") == {"recovery_codes": 0, "player_tokens": 0}
    assert credential_rows(url, "ann") == {"recovery_codes": 1, "player_tokens": 1}


@pytest.mark.parametrize(
    "name",
    [
        "Greedy bot",
        "Search (hard) bot",
        "Search (hard)",
        "greedy",
        "Greedy 2",
        "Program",
        "Expert bot",
        "My bot",
        "ext:mine",
        "ｇｒｅｅｄｙ",
    ],
)
async def test_a_bot_account_may_not_take_the_servers_bots_names(server, people, name):
    refused = people("Ann").http.post("/api/me/bots", json={"name": name})
    assert refused.status_code == 400 and refused.json()["error"] == "reserved_name", name


async def test_a_person_may_not_take_the_names_tables_show_for_bots(server):
    with httpx.Client(base_url=server.base, timeout=10) as http:
        for name in ("Search (hard)", "Search (easy)", "Greedy 3", "Program"):
            refused = http.post("/api/me", json={"name": name})
            assert refused.json().get("error") == "reserved_name", name


async def test_a_bot_account_plays_with_its_owner_only_unless_the_owner_says_anyone(server, people):
    ann, eve = people("Ann"), people("Eve")
    bot_id, token = make_bot_account(ann, "Shybot")
    assert ann.http.get("/api/me/bots").json()["bots"][0]["plays_with"] == "owner"
    table = eve.new_table("slide", ["me", "open"])
    invite = f"/api/tables/{table['id']}/seats/1/invite"
    refused = eve.http.post(invite, json={"bot": "Shybot"})
    assert refused.status_code == 403 and refused.json()["error"] == "owner_only"
    # only the owner says whom it plays with: not Eve, not the bot account itself
    settings = f"/api/me/bots/{bot_id}/settings"
    assert eve.http.post(settings, json={"plays_with": "anyone"}).status_code == 404
    with as_bot(server, token) as bot:
        answer = bot.post(settings, json={"plays_with": "anyone"})
        assert answer.status_code == 403 and answer.json()["error"] == "forbidden"
    answer = ann.http.post(settings, json={"plays_with": "everyone"})
    assert answer.status_code == 422 and answer.json()["error"] == "bad_request"
    assert ann.post(settings, {"plays_with": "anyone"}) == {
        "id": bot_id,
        "name": "Shybot",
        "plays_with": "anyone",
    }
    seat = eve.post(invite, {"bot": "Shybot"})["seats"][1]
    assert (seat["name"], seat["bot_account"]) == ("Shybot", True)
    ann.post(settings, {"plays_with": "owner"})  # and back: Eve's next table is refused
    again = eve.new_table("slide", ["me", "open"])
    refused = eve.http.post(f"/api/tables/{again['id']}/seats/1/invite", json={"bot": "Shybot"})
    assert refused.status_code == 403 and refused.json()["error"] == "owner_only"


async def bot_socket(server, token: str, table_id: str):
    """The bot account's websocket at a table, as its program opens it."""
    return await websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}?token={token}"
    )


async def closed_with(ws, timeout: float = 10) -> int | None:
    """The close code once the server closes the socket (reading whatever comes first)."""

    async def drain() -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for _ in ws:
                pass

    await asyncio.wait_for(drain(), timeout)
    return ws.close_code


async def test_a_renewed_token_ends_the_bot_accounts_open_sockets(server, people):
    ann = people("Ann")
    bot_id, token = make_bot_account(ann, "Socketbot")
    table = ann.new_table("slide", ["me", "open"])
    ann.post(f"/api/tables/{table['id']}/seats/1/invite", {"bot": "Socketbot"})
    ws = await bot_socket(server, token, table["id"])
    state = json.loads(await ws.recv())
    assert state["type"] == "state" and state["seat"] == 1
    ann.post(f"/api/me/bots/{bot_id}/token")
    assert await closed_with(ws) == 4401
    again = await bot_socket(server, token, table["id"])  # the old token: a spectator now
    assert json.loads(await again.recv())["seat"] is None
    await again.close()


async def test_the_reference_client_stops_when_its_token_is_renewed(server, people):
    """The program playing a table learns its token was renewed (the socket's 4401) and
    stops, saying why, rather than watching the table it no longer plays."""
    ann = people("Ann")
    bot_id, token = make_bot_account(ann, "Stopbot")
    table = ann.new_table("slide", ["me", "open"])
    ann.post(f"/api/tables/{table['id']}/seats/1/invite", {"bot": "Stopbot"})
    said: list[str] = []
    client = BotClient(server.base, token, "greedy", timeout=30, say=said.append)
    running = asyncio.create_task(client.run())
    deadline = asyncio.get_running_loop().time() + 20
    while not client._playing:  # (it has found the table and plays it)
        assert asyncio.get_running_loop().time() < deadline, said
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # its socket open at the table
    ann.post(f"/api/me/bots/{bot_id}/token")
    with pytest.raises(ClientError):
        await asyncio.wait_for(running, 20)
    assert any("token was renewed" in s for s in said), said


@pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)")
async def test_a_renewal_at_one_process_ends_the_sockets_another_holds(make_cluster):  # noqa: F811
    a, b = make_cluster(2)
    ann = Client(a, "Ann")
    bot_id, token = make_bot_account(ann, "Farbot")
    table = ann.new_table("slide", ["me", "open"])  # held by a
    ann.post(f"/api/tables/{table['id']}/seats/1/invite", {"bot": "Farbot"})
    ws = await bot_socket(b, token, table["id"])  # through b, to the holder a
    assert json.loads(await ws.recv())["seat"] == 1
    renewed = httpx.post(
        f"{b.base}/api/me/bots/{bot_id}/token",
        json={},
        cookies={"cardtable_token": ann.token},
        timeout=10,
    )
    assert renewed.status_code == 200, renewed.text
    assert await closed_with(ws) == 4401
    ann.http.close()
