"""A solitaire with no move left is held open for undo (issue #24; docs/server.md, "Table
lifecycle"): the player may still undo, ask a hint or restart, and the deal is finished as
lost, with its score, only when they leave, deal anew or restart. Real server processes,
real websocket clients."""

from __future__ import annotations

import pytest

from cardtable import games
from cardtable.bots import make_bot

STUCK_SEED = 3  # the greedy line gets stuck, 31 cards on the foundation, after 107 moves
WON_SEED = 19  # the greedy line wins in 83 moves


def greedy_line(seed: int) -> list[str]:
    """The greedy bot's whole game of a Doublets deal, as actions."""
    state = games.get("doublets").deal(seed)
    bot = make_bot("greedy", "doublets")
    while not state.over:
        state.act(0, bot.choose(state.view(0), state.legal(0)))
    return [a for _, a in state.actions]


async def play(sock, actions: list[str]) -> None:
    for action in actions:
        assert (await sock.act(action))["type"] == "ack"


def deal(person, seed: int, replaces: str | None = None) -> dict:
    return person.post(
        "/api/tables", {"game": "doublets", "seats": ["me"], "seed": seed, "replaces": replaces}
    )


async def test_a_stuck_deal_keeps_undo_hint_and_restart_until_it_is_left(people):
    ann = people("Ann")
    table = deal(ann, STUCK_SEED)
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: s["legal"])
    line = greedy_line(STUCK_SEED)
    await play(sock, line)
    stuck = await sock.until(lambda s: s["version"] == len(line))
    # no move is left, and the table still runs: undo, hint and restart are offered
    assert stuck["view"]["over"] and stuck["legal"] == [] and stuck["to_act"] == []
    assert stuck["table"]["status"] == "running" and stuck["ending"] is None
    assert stuck["table"]["can_undo"]
    assert {"undo", "hint", "restart", "new_deal"} <= set(stuck["tools"])
    hint = ann.http.get(f"/api/tables/{table['id']}/hint").json()
    assert hint["action"] is None
    assert hint["reason"].startswith("No move is left: nothing on the table fits")
    # not counted yet: the player may still undo
    assert ann.http.get("/api/stats/doublets").json()["played"] == 0
    mine = ann.http.get("/api/my-games").json()["unfinished"]
    assert [(g["id"], g["stuck"], g["your_turn"]) for g in mine] == [(table["id"], True, True)]
    # undo takes the last move back and the deal plays on; redo gets stuck again
    ann.post(f"/api/tables/{table['id']}/undo")
    back = await sock.until(lambda s: s["legal"])
    assert not back["view"]["over"] and back["table"]["status"] == "running"
    ann.post(f"/api/tables/{table['id']}/redo")
    await sock.until(lambda s: s["view"]["over"] and not s["legal"])
    # leaving finishes it: lost, played to its end, with its score (not "abandoned")
    assert ann.post(f"/api/tables/{table['id']}/leave")["outcome"] == "closed"
    over = await sock.until(lambda s: s["table"]["status"] == "over")
    assert "ended" not in over["table"] and over["ending"]["lines"] == [
        "Score 31 of 48 cards on the foundation."
    ]
    stats = ann.http.get("/api/stats/doublets").json()
    assert (stats["played"], stats["won"], stats["best_score"]) == (1, 0, 31)
    finished = ann.http.get("/api/my-games").json()["finished"]
    assert finished[0]["id"] == table["id"] and finished[0]["ended"] is None
    assert "Abandoned" not in (finished[0]["verdict"] or "")
    await sock.close()


async def test_a_stuck_deal_dealt_anew_ends_lost_with_its_score(people):
    """A new deal or a restart from a stuck deal ends it as its game did (lost, with its
    score), not as abandoned; a win still ends its table at once, with no undo."""
    ann = people("Ann")
    for how in ("restart", "new deal"):
        table = deal(ann, STUCK_SEED)
        sock = await ann.connect(table["id"])
        await sock.until(lambda s: s["legal"])
        await play(sock, greedy_line(STUCK_SEED))
        await sock.until(lambda s: s["view"]["over"])
        if how == "restart":
            new = ann.post(f"/api/tables/{table['id']}/restart")
        else:
            new = deal(ann, 7, replaces=table["id"])
        assert new["id"] != table["id"]
        old = ann.http.get(f"/api/tables/{table['id']}").json()
        assert old["status"] == "over" and old.get("ended") is None, how
        await sock.close()
    stats = ann.http.get("/api/stats/doublets").json()
    assert (stats["played"], stats["won"], stats["best_score"]) == (2, 0, 31)
    won = deal(ann, WON_SEED)
    sock = await ann.connect(won["id"])
    await sock.until(lambda s: s["legal"])
    await play(sock, greedy_line(WON_SEED))
    end = await sock.until(lambda s: s["table"]["status"] == "over")
    assert end["view"]["result"]["won"] and "undo" not in end["tools"]
    refused = ann.http.post(f"/api/tables/{won['id']}/undo", headers={"x-cardtable": "1"})
    assert refused.json()["error"] == "game_over"
    await sock.close()


async def test_a_stuck_deal_played_by_a_bot_ends_at_once(people):
    """Nobody undoes for a bot: its stuck deal is finished as it happens."""
    ann = people("Ann")
    table = ann.post("/api/tables", {"game": "doublets", "seats": ["greedy"], "seed": STUCK_SEED})
    sock = await ann.connect(table["id"])
    end = await sock.until(lambda s: s["table"]["status"] == "over", timeout=120)
    assert end["view"]["result"]["scores"] == [31] and "ended" not in end["table"]
    await sock.close()


@pytest.mark.own_process
async def test_a_stuck_deal_stays_open_after_a_restart(server, people):
    """A server that loads a stuck deal (after a kill) holds it open as before: undo works."""
    ann = people("Ann")
    table = deal(ann, STUCK_SEED)
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: s["legal"])
    await play(sock, greedy_line(STUCK_SEED))
    await sock.until(lambda s: s["view"]["over"])
    await sock.close()
    server.restart()
    again = await ann.connect(table["id"])
    state = await again.until(lambda s: True)
    assert state["table"]["status"] == "running" and state["table"]["can_undo"]
    ann.post(f"/api/tables/{table['id']}/undo")
    await again.until(lambda s: s["legal"] and not s["view"]["over"])
    await again.close()
