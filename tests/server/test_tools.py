"""Table tools are the server's to give (#23): the game declares them per player count
(``Game.tools``), every state message lists the viewer's (``tools``), and every route of a tool
refuses whoever was not offered it (403 ``not_offered``), whatever the page shows. A game from a
plugin with a solver, played at a shared table, offers no peek: its seated players cannot read
the draw pile through ``/winnable``."""

from __future__ import annotations

from helpers import play_with_greedy, stuck

ALONE = ["undo", "redo", "hint", "peek", "restart", "new_deal"]


def refused(client, method: str, path: str, body: dict | None = None) -> str:
    """The error code of a request that must be refused."""
    answer = client.http.request(method, path, json=body if method == "POST" else None)
    assert answer.status_code >= 400, (path, answer.text)
    return answer.json()["error"]


def every_tool(client, table_id: str, game: str) -> dict[str, str]:
    """Each tool's route tried by ``client``: tool -> the refusal's code."""
    base = f"/api/tables/{table_id}"
    return {
        "hint": refused(client, "GET", f"{base}/hint"),
        "peek": refused(client, "GET", f"{base}/winnable"),
        "undo": refused(client, "POST", f"{base}/undo", {}),
        "redo": refused(client, "POST", f"{base}/redo", {}),
        "restart": refused(client, "POST", f"{base}/restart", {}),
        "new_deal": refused(
            client, "POST", "/api/tables", {"game": game, "seats": ["me"], "replaces": table_id}
        ),
    }


async def test_a_solver_at_a_shared_table_is_never_offered(plugin_game, people):
    """Fifteen has a solver that reads the draw pile; at a shared table nobody may run it:
    a seated player's /winnable is refused, and no state lists a tool."""
    ann, bob, cy = people("Ann"), people("Bob"), people("Cy")
    table = ann.new_table(plugin_game, ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join", {})
    answer = ann.http.get(f"/api/tables/{table['id']}/winnable")
    assert "winnable" not in answer.json(), answer.text  # the solver never ran
    assert answer.status_code == 403 and answer.json()["error"] == "not_offered", answer.text
    listed = {g["name"]: g for g in ann.http.get("/api/games").json()}[plugin_game]
    assert listed["solver"] and listed["tools"] == {
        "alone": ["undo", "redo", "peek", "restart", "new_deal"],
        "shared": [],
    }
    a, b, watcher = (
        await ann.connect(table["id"]),
        await bob.connect(table["id"]),
        await cy.connect(table["id"]),
    )
    for sock in (a, b, watcher):
        state = await sock.until(lambda s: s["table"]["status"] == "running")
        assert state["tools"] == [], state["seat"]
    for who in (ann, bob, cy):
        assert set(every_tool(who, table["id"], plugin_game).values()) == {"not_offered"}
    assert ann.http.get(f"/api/tables/{table['id']}").json()["status"] == "running"
    for sock in (a, b, watcher):
        await sock.close()


async def test_each_viewer_of_a_solitaire_is_sent_its_own_tools(people):
    """Ann's Doublets: she has every tool, and undo and redo only while it runs; Cy, watching,
    has none and every route of a tool refuses him, changing nothing of her game."""
    ann, cy = people("Ann"), people("Cy")
    table = ann.new_table("doublets", ["me"])
    mine, watching = await ann.connect(table["id"]), await cy.connect(table["id"])
    state = await mine.until(lambda s: s["legal"])
    assert state["tools"] == ALONE
    assert (await watching.until(lambda s: True))["tools"] == []
    assert (await mine.act(state["legal"][-1]))["type"] == "ack"
    codes = every_tool(cy, table["id"], "doublets")
    assert set(codes.values()) == {"not_offered"}, codes
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "running" and info["can_undo"] and not info["can_redo"]
    over = await play_with_greedy(mine, "doublets")
    if stuck(over):  # no move left: every tool is kept until Ann leaves (docs/server.md)
        assert over["tools"] == ALONE
        ann.post(f"/api/tables/{table['id']}/leave")
        await mine.close()  # (the socket of a person who left watches: her seat is back on
        mine = await ann.connect(table["id"])  # a new one, the game over)
        over = await mine.until(lambda s: s["table"]["status"] == "over")
    assert over["tools"] == ["hint", "peek", "restart", "new_deal"]
    # not listed once over, and refused as such (a finished game is history)
    assert refused(ann, "POST", f"/api/tables/{table['id']}/undo", {}) == "game_over"
    for sock in (mine, watching):
        await sock.close()


async def test_a_shared_table_without_a_declared_tool_offers_none(people):
    """The Game at two: no undo, restart or new deal for its players either (taking back
    would need the other's consent; a restart or a chosen deal gives the deal away)."""
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("the-game", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join", {})
    sock = await ann.connect(table["id"])
    assert (await sock.until(lambda s: s["legal"] or s["table"]["status"] == "running"))[
        "tools"
    ] == []
    assert set(every_tool(ann, table["id"], "the-game").values()) == {"not_offered"}
    await sock.close()
