"""Web security against a real server: a page on another origin (another port of the same host
is enough) must not use a player's cookie to read their hand, act for them or undo their move;
forms cannot post; every answer carries the security headers; the database files are private.

Each attack is made as a browser would make it: the player's own cookie, plus the ``Origin``
header the browser adds for the page that asks."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import sys

import httpx
import pytest
import websockets
from sqlalchemy import func, select
from tests.server.conftest import Server
from websockets.exceptions import InvalidStatus

from cardtable.server.storage import store as db

EVIL_PORT = 1  # a page on another port of the same host: another origin


def evil(server: Server, host: str = "127.0.0.1") -> str:
    return f"http://{host}:{server.port + EVIL_PORT}"


def own(server: Server) -> str:
    return f"http://127.0.0.1:{server.port}"


def cookie(person) -> dict[str, str]:
    return {"cookie": f"cardtable_token={person.token}"}


async def socket_as_browser(server: Server, person, table_id: str, origin: str | None):
    """A websocket the way a page opens one: the cookie is sent, the token is not in the URL."""
    return await websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
        origin=origin,
        additional_headers=cookie(person),
        open_timeout=10,
    )


def table_count(server: Server) -> int:
    engine = db.make_engine(server.db_url)
    try:
        with engine.connect() as conn:
            return conn.scalar(select(func.count()).select_from(db.Table.__table__))
    finally:
        engine.dispose()


async def test_a_foreign_origin_cannot_open_a_players_socket(server, people):
    """The attack: a page on another port opened the table socket with the player's cookie and
    was sent the player's private hand. Now the handshake is refused: no view at all."""
    ann = people("Ann")
    table = ann.new_table("the-game", ["me", "greedy"])
    for foreign in (
        evil(server),
        f"http://localhost:{server.port}",
        "null",
        f"https://127.0.0.1:{server.port}",
    ):
        with pytest.raises(InvalidStatus) as refused:
            ws = await socket_as_browser(server, ann, table["id"], foreign)
            try:  # on a server that accepts it: the hand arrives, and a signal goes through
                leaked = await asyncio.wait_for(ws.recv(), 5)
                await ws.send('{"type": "act", "action": "signal up1 good", "id": "x"}')
                await asyncio.wait_for(ws.recv(), 5)
            finally:
                await ws.close()
            pytest.fail(f"a page at {foreign} was sent {leaked[:120]}")
        assert refused.value.response.status_code == 403, foreign
        assert b'"bad_origin"' in refused.value.response.body
    assert ann.http.get(f"/api/tables/{table['id']}").json()["version"] == table["version"]


async def test_the_own_origin_and_clients_without_origin_still_connect(server, people):
    ann = people("Ann")
    table = ann.new_table("the-game", ["me", "greedy"])
    for origin in (own(server), None):  # the page itself; a bot or a test
        ws = await socket_as_browser(server, ann, table["id"], origin)
        try:
            state = await read_state(ws)
            assert state["seat"] == 0 and state["view"]["hand"]
        finally:
            await ws.close()


async def read_state(ws) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "state":
            return message


async def played_doublets(ann) -> dict:
    """Ann's solitaire with one move played (which an attacker would like to undo)."""
    table = ann.new_table("doublets", ["me"])
    sock = await ann.connect(table["id"])
    state = await sock.until(lambda s: s["legal"])
    assert (await sock.act(state["legal"][-1]))["type"] == "ack"
    await sock.close()
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["can_undo"]
    return info


async def test_a_foreign_origin_cannot_post_and_changes_nothing(server, people):
    """The attack: a page on another port posted undo with the player's cookie. Every
    state-changing route is refused for a foreign origin, even with a JSON body."""
    ann, bob = people("Ann"), people("Bob")
    solo = await played_doublets(ann)
    open_table = bob.new_table("the-game", ["me", "open"])
    tables_before = table_count(server)
    for who, path, body in [
        (ann, f"/api/tables/{solo['id']}/undo", None),
        (ann, f"/api/tables/{solo['id']}/redo", None),
        (ann, f"/api/tables/{solo['id']}/restart", None),
        (ann, f"/api/tables/{open_table['id']}/join", {"seat": 1}),
        (bob, f"/api/tables/{open_table['id']}/seats/1/bot", {"bot": "greedy"}),
        (ann, "/api/tables", {"game": "doublets", "seats": ["me"]}),
        (ann, "/api/me", {"name": "Mallory"}),
    ]:
        got = httpx.post(
            server.base + path,
            json=body if body is not None else {},
            headers={**cookie(who), "origin": evil(server), "x-cardtable": "1"},
        )
        assert got.status_code == 403, (path, got.text)
        assert got.json()["error"] == "bad_origin" and got.json()["message"]
    assert ann.http.get(f"/api/tables/{solo['id']}").json() == solo
    assert bob.http.get(f"/api/tables/{open_table['id']}").json() == open_table
    assert ann.http.get("/api/me").json()["player"]["name"] == "Ann"
    assert table_count(server) == tables_before


async def test_a_post_a_form_could_send_is_refused(server, people):
    """No Origin (an old browser, a privacy proxy) and a body a plain HTML form or a no-cors
    fetch can send: refused with ``csrf``, and the move stays played."""
    ann = people("Ann")
    solo = await played_doublets(ann)
    for content_type in (
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain",
        None,
    ):
        headers = cookie(ann) | ({"content-type": content_type} if content_type else {})
        got = httpx.post(
            f"{server.base}/api/tables/{solo['id']}/undo",
            headers=headers,
            content=b"a=b" if content_type else None,
        )
        assert got.status_code == 403, (content_type, got.text)
        assert got.json()["error"] == "csrf" and "x-cardtable" in got.json()["message"]
    got = httpx.post(
        f"{server.base}/api/tables",
        headers=cookie(ann) | {"content-type": "text/plain"},
        content=b'{"game": "doublets", "seats": ["me"]}',
    )
    assert got.status_code in (403, 422) and "error" in got.json()
    assert ann.http.get(f"/api/tables/{solo['id']}").json() == solo


async def test_the_browser_way_still_works(server, people):
    """What the pages send: their own Origin, the cookie, and a JSON body or x-cardtable."""
    ann = people("Ann")
    solo = await played_doublets(ann)
    page = cookie(ann) | {"origin": own(server)}
    got = httpx.post(
        f"{server.base}/api/tables/{solo['id']}/undo", headers=page | {"x-cardtable": "1"}
    )
    assert got.status_code == 200 and got.json()["can_redo"]
    got = httpx.post(
        f"{server.base}/api/tables/{solo['id']}/redo",
        headers=page | {"content-type": "application/json; charset=utf-8"},
    )
    assert got.status_code == 200 and got.json()["can_undo"]
    got = httpx.post(f"{server.base}/api/me", json={"name": "Annie"}, headers=page)
    assert got.status_code == 200 and got.json()["player"]["name"] == "Annie"
    # a non-browser client with the token header needs no Origin and no body
    got = httpx.post(
        f"{server.base}/api/tables/{solo['id']}/undo", headers={"x-cardtable-token": ann.token}
    )
    assert got.status_code == 200


async def test_allowed_origins_are_configurable(tmp_path):
    srv = Server(
        f"sqlite:///{tmp_path / 'cardtable.sqlite'}",
        tmp_path,
        ["--allowed-origin", "https://Cards.Example:443/"],
    )
    srv.start()
    try:
        http = httpx.Client(base_url=srv.base, timeout=10)
        http.post("/api/me", json={"name": "Ann"}).raise_for_status()
        token = http.cookies["cardtable_token"]
        table = http.post(
            "/api/tables", json={"game": "the-game", "seats": ["me", "greedy"]}
        ).json()
        url = f"ws://127.0.0.1:{srv.port}/ws/tables/{table['id']}"
        headers = {"cookie": f"cardtable_token={token}"}
        for origin in ("https://cards.example", own(srv)):  # listed, and still its own
            async with websockets.connect(url, origin=origin, additional_headers=headers) as ws:
                assert (await read_state(ws))["seat"] == 0
            got = http.post("/api/me", json={"name": "Ann"}, headers={"origin": origin})
            assert got.status_code == 200
        with pytest.raises(InvalidStatus):
            await websockets.connect(url, origin="http://cards.example", additional_headers=headers)
        assert (
            http.post(
                "/api/me", json={"name": "Ann"}, headers={"origin": "http://cards.example"}
            ).status_code
            == 403
        )
        http.close()
    finally:
        srv.kill()


SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


def test_every_answer_carries_the_security_headers(server, people):
    ann = people("Ann")
    table = ann.new_table("doublets", ["me"])
    answers = [
        ann.http.get(path)
        for path in (
            "/",
            f"/t/{table['id']}",
            f"/t/{table['id']}/replay",
            "/leaderboard",
            "/static/common.js",
            "/static/style.css",
            "/api/games",
            f"/api/tables/{table['id']}",
            "/api/no/such/route",
        )
    ]
    answers.append(httpx.post(server.base + "/api/me", headers={"origin": evil(server)}))
    answers.append(
        httpx.post(
            server.base + "/api/me",
            content=b"name=x",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
    )
    for answer in answers:
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers.get(name) == value, (answer.url, name)
        policy = answer.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["default-src"] == "'none'"
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["connect-src"] == f"'self' ws://127.0.0.1:{server.port}"
        assert "unsafe" not in policy


def set_cookie(answer: httpx.Response) -> str:
    return answer.headers["set-cookie"].lower()


def test_the_cookie_is_secure_over_https(server):
    plain = httpx.post(server.base + "/api/me", json={"name": "Ann"})
    assert "secure" not in set_cookie(plain) and "httponly" in set_cookie(plain)
    # a TLS proxy on this machine (uvicorn trusts 127.0.0.1 by default: --forwarded-allow-ips)
    proxied = httpx.post(
        server.base + "/api/me",
        json={"name": "Bob"},
        headers={"x-forwarded-proto": "https", "origin": f"https://127.0.0.1:{server.port}"},
    )
    assert proxied.status_code == 200 and "; secure" in set_cookie(proxied)
    assert f"wss://127.0.0.1:{server.port}" in proxied.headers["content-security-policy"]


def test_secure_cookies_option_marks_the_cookie_secure_over_plain_http(tmp_path):
    srv = Server(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path, ["--secure-cookies"])
    srv.start()
    try:
        answer = httpx.post(srv.base + "/api/me", json={"name": "Ann"})
        assert answer.status_code == 200 and "; secure" in set_cookie(answer)
    finally:
        srv.kill()


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.own_process
async def test_the_sqlite_files_are_readable_by_the_owner_only(server, people):
    if not server.db_url.startswith("sqlite"):
        pytest.skip("SQLite files only")
    old_umask = os.umask(0o022)  # the usual umask: files would be 0644
    try:
        await played_doublets(people("Ann"))
        files = [server.data / f"cardtable.sqlite{s}" for s in ("", "-wal", "-shm")]
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
        # a database made by an older cardtable, readable by all: tightened at start
        server.kill()
        for f in files:
            os.chmod(f, 0o644)
        server.start()
        assert {f.name: mode(f) for f in files if f.exists()} == {
            f.name: 0o600 for f in files if f.exists()
        }
    finally:
        os.umask(old_umask)


def test_the_data_folder_cardtable_creates_is_private(tmp_path):
    old_umask = os.umask(0o022)
    try:
        folder = tmp_path / "new" / "cardtable"
        store = db.Store(db.default_url(folder))
        store.close()
        assert mode(folder) == 0o700
        assert mode(folder / "cardtable.sqlite") == 0o600
        shared = tmp_path / "shared"  # a folder the operator made: left as it is
        shared.mkdir(mode=0o755)
        db.default_url(shared)
        assert mode(shared) == 0o755
    finally:
        os.umask(old_umask)


def test_a_bad_allowed_origin_stops_the_server_at_once(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--allowed-origin",
            "cards.example",
            "--db",
            f"sqlite:///{tmp_path / 'x.sqlite'}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = done.stderr + done.stdout
    assert done.returncode != 0 and "--allowed-origin" in said and "'cards.example'" in said


def test_whose_code_names_its_person_without_using_it_and_counts_as_a_try(server, people):
    """A page shown a recovery link asks whose code it is before it switches (#23): the
    answer names the person, changes nothing, and shares the recover route's budget."""
    ann = people("Ann")
    code = ann.post("/api/me/recovery")["code"]
    with httpx.Client(base_url=server.base, timeout=10) as other:
        bob = other.post("/api/me", json={"name": "Bob"}).json()["player"]
        whose = other.post("/api/me/recover/whose", json={"code": code.lower()})
        assert whose.status_code == 200, whose.text
        assert whose.json()["player"] == {"id": ann.id, "name": "Ann", "bot": False}
        assert "set-cookie" not in whose.headers
        assert other.get("/api/me").json()["player"]["id"] == bob["id"]  # still Bob
        # one budget of tries per address, whichever route: four more, then a wait
        answers = [
            other.post(path, json={"code": "AAAAA-AAAAA"}).status_code
            for path in ["/api/me/recover/whose", "/api/me/recover"] * 3
        ]
        assert answers[:4] == [404] * 4 and answers[4:] == [429, 429], answers
