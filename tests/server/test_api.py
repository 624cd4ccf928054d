"""The API's models: /openapi.json documents the real routes with their bodies and answers,
the websocket's messages have a schema, and every message a real server sends fits its model
exactly (no field the model does not name, none missing). A game from a plugin plays through
the server like the built-in ones."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fastapi.testclient import TestClient

from cardtable.server.api.messages import CLIENT_MESSAGE, SERVER_MESSAGE
from cardtable.server.web.app import create_app
from cardtable.server.web.settings import ServerSettings
from helpers import play_with_greedy


def ref(schema: dict) -> str:
    """The model a schema names (``#/components/schemas/NAME``), through an array."""
    if schema.get("type") == "array":
        schema = schema["items"]
    return schema.get("$ref", "").rsplit("/", 1)[-1]


def test_openapi_lists_the_routes_with_their_models(tmp_path: Path):
    with TestClient(create_app(ServerSettings(db=f"sqlite:///{tmp_path}/api.sqlite"))) as client:
        api = client.get("/openapi.json").json()
    paths = api["paths"]

    def answer(path: str, method: str = "get") -> str:
        return ref(paths[path][method]["responses"]["200"]["content"]["application/json"]["schema"])

    def body(path: str) -> str:
        return ref(paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"])

    assert answer("/api/me") == answer("/api/me", "post") == "MeAnswer"
    assert body("/api/me") == "NameBody"
    assert answer("/api/games") == "GameInfo"
    assert answer("/api/tables") == answer("/api/tables", "post") == "TableInfo"
    assert body("/api/tables") == "NewTable"
    assert answer("/api/tables/{table_id}") == "TableInfo"
    assert answer("/api/tables/{table_id}/join", "post") == "JoinAnswer"
    assert body("/api/tables/{table_id}/join") == "JoinBody"
    assert body("/api/tables/{table_id}/seats/{seat}/bot") == "BotBody"
    for action in ("undo", "redo", "restart"):
        assert answer(f"/api/tables/{{table_id}}/{action}", "post") == "TableInfo"
    assert answer("/api/tables/{table_id}/hint") == "HintAnswer"
    assert answer("/api/tables/{table_id}/winnable") == "WinnableAnswer"
    assert answer("/api/tables/{table_id}/replay") == "ReplayStep"
    assert answer("/api/stats/{game}") == "Stats"
    assert answer("/api/leaderboard") == "LeaderboardRow"
    assert answer("/api/ws-schema") == "WebsocketSchema"
    # every refusal is documented with its one shape
    assert (
        ref(
            paths["/api/tables"]["post"]["responses"]["409"]["content"]["application/json"][
                "schema"
            ]
        )
        == "ErrorAnswer"
    )
    schemas = api["components"]["schemas"]
    assert {"error", "message"} <= set(schemas["ErrorAnswer"]["required"])
    assert "history" in schemas["SeatInfo"]["properties"]
    assert set(schemas["TableInfo"]["required"]) >= {"id", "game", "seed", "seats", "version"}


def test_the_websocket_messages_have_a_schema(tmp_path: Path):
    with TestClient(create_app(ServerSettings(db=f"sqlite:///{tmp_path}/api.sqlite"))) as client:
        schema = client.get("/api/ws-schema").json()
    assert set(schema["client"]["discriminator"]["mapping"]) == {"act", "ping", "sync", "chat"}
    assert set(schema["server"]["discriminator"]["mapping"]) == {
        "state",
        "ack",
        "error",
        "pong",
        "presence",
        "chat",
    }
    act = schema["client"]["$defs"]["ActMessage"]
    assert act["properties"]["action"]["maxLength"] == 64 and "action" in act["required"]
    # every state lists the viewer's table tools, by name (#23)
    from cardtable.core.protocol import TOOLS

    state = schema["server"]["$defs"]["StateMessage"]
    assert "tools" in state["required"]
    assert state["properties"]["tools"]["items"]["enum"] == list(TOOLS)


def fits(message: dict) -> bool:
    """The message validates against its server model and says nothing the model lacks."""
    model = SERVER_MESSAGE.validate_python(message)
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True) == message


async def test_every_message_a_real_server_sends_fits_its_model(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "greedy", "open"])
    bob.post(f"/api/tables/{table['id']}/join", {})
    sock, watcher = await ann.connect(table["id"]), await bob.connect(table["id"])
    spectator = await people("Cy").connect(table["id"])
    assert (await sock.send_raw(json.dumps({"type": "ping", "id": "p"})))["type"] == "pong"
    assert (await sock.send_raw(json.dumps({"type": "act", "action": 7})))["type"] == "error"
    assert (await sock.send_raw('{"type": "act", "action": "x", "version": 1.5}'))[
        "code"
    ] == "bad_message"
    while not any(m["type"] == "presence" for m in sock.messages):  # the spectator came
        await sock.recv()
    await spectator.close()
    await asyncio.gather(play_with_greedy(sock, "slide"), play_with_greedy(watcher, "slide"))
    over = await sock.until(lambda s: s["table"]["status"] == "over")
    assert all("history" in s for s in over["table"]["seats"])
    kinds = {m["type"] for m in sock.messages + watcher.messages}
    assert {"state", "ack", "error", "pong", "presence"} <= kinds, kinds
    for message in sock.messages + watcher.messages + spectator.messages:
        assert fits(message), message
    for close in (sock, watcher):
        await close.close()


def test_client_messages_are_refused_in_the_words_clients_know():
    from cardtable.server.api.messages import parse_client

    assert parse_client({"type": "dance"}) == (
        "unknown message type 'dance': act, ping, sync or chat"
    )
    assert parse_client({}) == "unknown message type None: act, ping, sync or chat"
    assert parse_client({"type": "act", "action": "x" * 65}).startswith("action must be")
    assert parse_client({"type": "act", "action": "x", "version": True}).startswith("version")
    assert parse_client({"type": "act", "action": "x", "version": "3"}).startswith("version")
    assert parse_client({"type": "ping", "id": "\ud800"}) == "id must be a short string"
    act = parse_client({"type": "act", "action": "take 7 left", "version": 3, "extra": 1})
    assert act == CLIENT_MESSAGE.validate_python(
        {"type": "act", "action": "take 7 left", "version": 3}
    )


async def test_a_game_from_a_plugin_plays_through_the_server(plugin_game, people):
    """The fourth game, installed through the entry point only, in a real server with real
    websocket clients: listed, dealt, played against the greedy bot to the end, rated."""
    ann = people("Ann")
    listed = {g["name"]: g for g in ann.http.get("/api/games").json()}
    assert plugin_game in listed and "greedy" in [b["name"] for b in listed[plugin_game]["bots"]]
    table = ann.new_table(plugin_game, ["me", "greedy"])
    sock = await ann.connect(table["id"])
    over = await play_with_greedy(sock, plugin_game, errors_allowed=False)
    assert over["table"]["status"] == "over" and over["table"]["seed"] is not None
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert record["game"] == plugin_game and record["actions"]
    assert any(r["game"] == plugin_game for r in ann.http.get("/api/leaderboard").json())
    await sock.close()


def test_the_state_the_server_builds_has_the_models_fields():
    """``broadcast.state_message`` returns a ``StateDict``, which mypy checks where it is
    built: it must name exactly the fields of ``StateMessage``, the documented model (#25)."""
    from typing import get_type_hints

    from cardtable.server.api.messages import StateDict, StateMessage

    assert set(get_type_hints(StateDict)) == set(StateMessage.model_fields)
