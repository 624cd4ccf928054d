"""One rule for every route: each HTTP route and each websocket message, tried with no
identity, another person's, a bot account's token and the owner's, answers exactly as the
written table in docs/server.md ("Who may do what") says. A route or a message added later
without a line there fails here, and so does a line for a route that is gone.

Each try gets tables of its own, made for it (a try that changes a table cannot change what
the next one sees), by a person made for the line ("the owner")."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from server.conftest import PG, InProcessServer, fresh_pg_database

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"
HEADING = "### Who may do what"
#: who tries, in the order of the table's columns (the owner last: its try may change most)
WHO = ("nobody", "a person", "a bot account", "the owner")

#: what a route's path names, by parameter
SEAT = 1
GAME = "doublets"


@dataclass(frozen=True)
class Line:
    what: str  # "GET /api/me", or a websocket message type
    table: str  # the table the try is about: "–", "alone", "shared", "open", "over"
    answers: tuple[str, ...]  # per column of WHO: "200", "403 forbidden", "pong", ...


def written_table(kind: str) -> dict[tuple[str, str], Line]:
    """The lines of one of the two tables under the heading, by route (or message) and
    table: "http" (the first, whose first column is a route) or "ws" (the second, of
    websocket messages). A route may have a line for each kind of table."""
    text = DOCS.read_text()
    assert HEADING in text, f"docs/server.md has no {HEADING!r} section"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    tables: list[dict[tuple[str, str], Line]] = []
    rows: dict[tuple[str, str], Line] = {}
    for raw in section.splitlines() + [""]:
        if not raw.startswith("|"):
            if rows:
                tables.append(rows)
                rows = {}
            continue
        cells = [c.strip() for c in raw.strip().strip("|").split("|")]
        if set(cells[0]) <= {"-", ":"} or cells[0] in ("route", "message"):
            continue
        line = Line(cells[0].strip("`"), cells[1], tuple(c.strip("`") for c in cells[2:]))
        assert (line.what, line.table) not in rows, f"two lines for {line}"
        rows[line.what, line.table] = line
    assert len(tables) == 2, "the section has two tables: routes, then websocket messages"
    return tables[0] if kind == "http" else tables[1]


# -- the server and the people -------------------------------------------------------------
@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(
                not PG, reason="no PostgreSQL: set CARDTABLE_TEST_PG_URL to run these against one"
            ),
        ),
    ]
)
def open_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[InProcessServer]:
    """A server that lets one address make new people without a wait (the lines make two
    a line); every other limit as served."""
    url = (
        f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
        if request.param == "sqlite"
        else fresh_pg_database(PG)
    )
    inside = InProcessServer(url, tmp_path, ["--new-players-per-minute", "0"])
    inside.start()
    yield inside
    inside.stop()


class Who:
    """One of the columns: an HTTP client with its identity (or none)."""

    def __init__(
        self, base: str, address: str, token: str | None = None, header: bool = False
    ) -> None:
        self.token = token
        cookies = {"cardtable_token": token} if token and not header else None
        # every POST passes the CSRF check (security.py, tested on its own): the route answers
        headers = {"x-cardtable": "1"} | ({"x-cardtable-token": token} if token and header else {})
        # each line's callers come from an address of their own (127.x.y.z is all this
        # machine): the limits per address (recovery codes tried) count per line
        self.http = httpx.Client(
            base_url=base,
            timeout=20,
            cookies=cookies,
            headers=headers,
            transport=httpx.HTTPTransport(local_address=address),
        )

    def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return self.http.request(method, path, json=body if method != "GET" else None)

    def ok(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        answer = self.call(method, path, body)
        assert answer.status_code == 200, f"{method} {path}: {answer.text}"
        return answer.json()


def person(base: str, address: str, name: str) -> Who:
    answer = Who(base, address).call("POST", "/api/me", {"name": name})
    assert answer.status_code == 200, answer.text
    return Who(base, address, answer.cookies["cardtable_token"])


@dataclass
class Cast:
    """The people of one line: the owner (who makes the tables and owns the bot accounts),
    another person, nobody, and one of the owner's bot accounts (its token: a bot account
    must not have its owner's rights), with a second bot account the routes may name."""

    who: dict[str, Who]
    other_bot: str  # the id of the owner's second bot account
    other_bot_name: str

    @classmethod
    def make(cls, base: str) -> Cast:
        tag = secrets.token_hex(3)
        address = "127.{}.{}.{}".format(*secrets.token_bytes(3))
        owner, other = person(base, address, f"Ann {tag}"), person(base, address, f"Bob {tag}")
        bot = owner.ok("POST", "/api/me/bots", {"name": f"Robo {tag}"})
        second = owner.ok("POST", "/api/me/bots", {"name": f"Tin {tag}"})
        return cls(
            {
                "nobody": Who(base, address),
                "a person": other,
                "a bot account": Who(base, address, bot["token"], header=True),
                "the owner": owner,
            },
            second["bot"]["id"],
            second["bot"]["name"],
        )

    def table(self, kind: str) -> str:
        """A new table of the owner's: ``alone`` (Doublets, running), ``shared`` (Slide with
        a bot, running), ``open`` (Slide with a seat for a friend), ``over`` (a Doublets
        game resigned)."""
        owner = self.who["the owner"]
        if kind == "tournament":
            made = owner.ok("POST", "/api/tournaments", {"name": "Cup", "game": "slide"})
            return str(made["id"])
        seats = {
            "alone": ["me"],
            "over": ["me"],
            "shared": ["me", "greedy"],
            "open": ["me", "open"],
        }[kind]
        table = owner.ok(
            "POST",
            "/api/tables",
            {"game": "slide" if kind in ("shared", "open") else "doublets", "seats": seats},
        )
        if kind == "over":
            owner.ok("POST", f"/api/tables/{table['id']}/resign")
        return str(table["id"])


# -- HTTP ------------------------------------------------------------------------------------
#: a body for each route that takes one: valid, so that the answer is about who asks
BODIES: dict[str, Callable[[Cast], Any]] = {
    "POST /api/me": lambda c: {"name": f"Cy {secrets.token_hex(3)}"},
    "POST /api/me/bots": lambda c: {"name": f"Bolt {secrets.token_hex(3)}"},
    "POST /api/me/recover": lambda c: {"code": "no-such-code-" + secrets.token_hex(8)},
    "POST /api/me/recover/whose": lambda c: {"code": "no-such-code-" + secrets.token_hex(8)},
    "POST /api/me/bots/{bot_id}/settings": lambda c: {"plays_with": "anyone"},
    "POST /api/me/language": lambda c: {"language": "cs"},
    "POST /api/tables": lambda c: {"game": "doublets", "seats": ["me"]},
    "POST /api/tables/{table_id}/join": lambda c: {"seat": None},
    "POST /api/tables/{table_id}/seats/{seat}/invite": lambda c: {"bot": c.other_bot_name},
    "POST /api/tables/{table_id}/seats/{seat}/bot": lambda c: {"bot": "greedy"},
    "POST /api/tables/{table_id}/chat": lambda c: {"free": False},
    "POST /api/tables/{table_id}/practice": lambda c: {"step": 0},
    "POST /api/tournaments": lambda c: {"name": "Cup", "game": "slide"},
}


def flat_routes(routes: list) -> list:
    """The routes of a router, those of the routers it includes too (FastAPI keeps an
    included router as one entry of its own: the server has a router per area)."""
    out = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        out += flat_routes(inner.routes) if inner is not None else [route]
    return out


def app_routes(server: InProcessServer) -> set[str]:
    """Every route the running app answers, "METHOD path" (pages and the static files too:
    those the OpenAPI document leaves out)."""
    from fastapi import FastAPI
    from starlette.routing import Mount, Route, WebSocketRoute

    app = server.uvicorn.config.app
    while not isinstance(app, FastAPI):  # the middleware around it
        app = app.app
    found = set()
    for route in flat_routes(app.routes):
        if isinstance(route, Mount):
            found.add(f"GET {route.path}/{{path}}")
        elif isinstance(route, WebSocketRoute):
            found.add(f"WS {route.path}")
        elif isinstance(route, Route):
            found |= {f"{m} {route.path}" for m in route.methods or () if m != "HEAD"}
    return found


def path_for(route: str, cast: Cast, table: str | None) -> str:
    path = route.split(" ", 1)[1]
    path = path.replace("{bot_id}", cast.other_bot).replace("{seat}", str(SEAT))
    path = path.replace("{game}", GAME).replace("{path}", "common.js").replace("{code}", "cs")
    path = path.replace("{tournament_id}", table or "no-tournament")
    return path.replace("{table_id}", table or "no-table")


def answer_of(response: httpx.Response) -> str:
    """What a try got, as the table writes it: the status, and the error code if any."""
    if response.status_code < 400:
        return str(response.status_code)
    try:
        code = response.json().get("error")
    except (json.JSONDecodeError, AttributeError):
        code = None
    return f"{response.status_code} {code}" if code else str(response.status_code)


async def first_message(server: InProcessServer, who: Who, path: str) -> str:
    url = f"ws://127.0.0.1:{server.port}{path}" + (f"?token={who.token}" if who.token else "")
    async with websockets.connect(url) as ws:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return str(message["type"])


def test_every_route_has_a_line_and_every_line_a_route(open_server: InProcessServer) -> None:
    written = {route for route, _ in written_table("http")}
    served = app_routes(open_server)
    in_schema = {
        f"{m.upper()} {p}"
        for p, ops in httpx.get(open_server.base + "/openapi.json").json()["paths"].items()
        for m in ops
    }
    assert in_schema <= served
    assert sorted(served - set(written)) == [], "routes without a line in docs/server.md"
    assert sorted(set(written) - served) == [], "lines in docs/server.md of no route"


def test_every_route_answers_as_written(open_server: InProcessServer) -> None:
    written = written_table("http")
    got: dict[tuple[str, str], tuple[str, ...]] = {}
    for (route, _), line in written.items():
        method = route.split(" ", 1)[0]
        cast = Cast.make(open_server.base)
        answers = []
        for who in WHO:
            table = cast.table(line.table) if line.table != "–" else None
            body = BODIES[route](cast) if route in BODIES else None
            path = path_for(route, cast, table)
            if method == "WS":  # what the socket sends first
                answers.append(asyncio.run(first_message(open_server, cast.who[who], path)))
                continue
            answers.append(answer_of(cast.who[who].call(method, path, body)))
        got[route, line.table] = tuple(answers)
    assert_as_written(written, got)


def assert_as_written(
    written: dict[tuple[str, str], Line], got: dict[tuple[str, str], tuple[str, ...]]
) -> None:
    """Every line answered as written; if not, the lines as they would be written now."""
    wrong = {k: a for k, a in got.items() if a != written[k].answers}
    assert wrong == {}, "got, where the table says otherwise:\n" + "\n".join(
        f"| `{what}` | {table} | " + " | ".join(a) + " |" for (what, table), a in wrong.items()
    )


# -- the websocket ---------------------------------------------------------------------------
#: a message of each type the socket takes, for a seated person's try to be accepted
MESSAGES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "act": lambda state: {
        "type": "act",
        "action": state["legal"][0] if state["legal"] else "r0",
        "version": state["version"],
        "id": "try-1",
    },
    "ping": lambda state: {"type": "ping", "id": "try-1"},
    "sync": lambda state: {"type": "sync", "version": state["version"], "id": "try-1"},
    "chat": lambda state: {"type": "chat", "text": "hello", "id": "try-1"},
}


def socket_message_types() -> set[str]:
    """The ``type`` of each message the socket takes (``messages.ClientMessage``)."""
    from typing import get_args

    from cardtable.server.api.messages import ClientMessage

    union = get_args(ClientMessage)[0]
    return {get_args(m.model_fields["type"].annotation)[0] for m in get_args(union)}


async def socket_try(port: int, cast: Cast, who: str, table: str, kind: str) -> str:
    """Send one message of ``kind`` as ``who`` and say what came back to it."""
    token = cast.who[who].token
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}" + (f"?token={token}" if token else "")
    async with websockets.connect(url) as ws:
        state: dict[str, Any] = {}
        while not state:  # the table comes first
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            state = message if message["type"] == "state" else {}
        await ws.send(json.dumps(MESSAGES[kind](state)))
        while True:  # until the answer to the try (other messages may come between)
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if message.get("id") == "try-1" or (kind == "sync" and message["type"] == "state"):
                break
            if (
                kind == "chat"
                and message["type"] == "chat"
                and not message["replay"]
                and any(m["text"] == "hello" for m in message["messages"])
            ):
                break
        if message["type"] == "error":
            return f"error {message['code']}"
        return str(message["type"])


def test_every_message_type_has_a_line(open_server: InProcessServer) -> None:
    assert sorted(socket_message_types() ^ {m for m, _ in written_table("ws")}) == [], (
        "websocket message types and the lines of docs/server.md differ"
    )
    assert set(MESSAGES) == socket_message_types()


async def test_every_message_answers_as_written(open_server: InProcessServer) -> None:
    written = written_table("ws")
    got = {}
    for (kind, _), line in written.items():
        cast = await asyncio.to_thread(Cast.make, open_server.base)
        answers = []
        for who in WHO:
            table = await asyncio.to_thread(cast.table, line.table)
            answers.append(await socket_try(open_server.port, cast, who, table, kind))
        got[kind, line.table] = tuple(answers)
    assert_as_written(written, got)


def test_the_table_is_read_as_written() -> None:
    """The parser itself: two tables, four answers a line, tables named as the fixtures do."""
    for kind in ("http", "ws"):
        for line in written_table(kind).values():
            assert len(line.answers) == len(WHO), line
            assert line.table in ("–", "alone", "shared", "open", "over", "tournament"), line
            for answer in line.answers:
                assert re.fullmatch(r"[1-5]\d\d( [a-z_]+)?|error [a-z_]+|[a-z]+", answer), line
