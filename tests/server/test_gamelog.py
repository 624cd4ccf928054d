"""The game log in the state message, against a real server with real websocket clients: each
move in words as each viewer may read it (Slide's reveal is secret from the others until it
resolves), the last move, who must act (a seat that has chosen is not to play), the labels
of the legal actions, the end in words with each seat's own verdict, the whole log after a
reconnect, and who played each move after a seat went to a bot (issue #11)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardtable import games
from cardtable.server.api.messages import SERVER_MESSAGE
from server.conftest import Client
from server.test_seats import GRACE, grace_server_for, hand, play_greedy, until_gone


@pytest.fixture
def handing_server(tmp_path: Path):
    """A server whose seats may go to a bot after a short grace (test_seats.py's)."""
    srv = grace_server_for(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path)
    srv.start()
    yield srv
    srv.kill()


def texts(state: dict) -> list[str]:
    return [e["text"] for e in state["log"]]


def article(value: int) -> str:
    return f"{'an' if value == 8 else 'a'} {value}"


async def test_a_reveal_reads_secret_to_the_others_until_every_seat_has_chosen(people):
    ann, bob, eve = people("Ann"), people("Bob"), people("Eve")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    mine, theirs = await ann.connect(table["id"]), await bob.connect(table["id"])
    watching = await eve.connect(table["id"], token=False)
    running = lambda s: s["table"]["status"] == "running"  # noqa: E731
    for sock in (mine, theirs, watching):
        await sock.until(running)
    assert mine.state["log"] == [] and mine.state["last"] is None
    # labels: one per legal action, from the game
    game = games.get("slide")
    assert mine.state["labels"] == [
        game.move_label(mine.state["view"], a) for a in mine.state["legal"]
    ]
    cell = mine.state["legal"][0].split(" ")[1]
    assert (await mine.act(f"reveal {cell}"))["type"] == "ack"
    one = lambda s: len(s["log"]) == 1  # noqa: E731
    for sock in (mine, theirs, watching):
        await sock.until(one)
        SERVER_MESSAGE.validate_python(sock.state)
    assert texts(mine.state) == [f"Ann chose {cell} to reveal"]
    assert texts(theirs.state) == texts(watching.state) == ["Ann chose a card to reveal"]
    assert mine.state["last"] == {"n": 0, "seat": 0, "action": f"reveal {cell}"}
    assert theirs.state["last"] == {"n": 0, "seat": 0, "action": None}
    # Ann has chosen: she may change her mind (legal) but is not to play (to_act)
    assert mine.state["legal"] and mine.state["to_act"] == [1]
    assert theirs.state["to_act"] == [1]
    # nothing of Ann's choice in any byte the others were sent
    assert cell not in str([m for m in theirs.messages if m["type"] == "state"][-1]["log"])

    # Ann changes her mind: the log keeps her last choice only, for every viewer
    cell = mine.state["legal"][-1].split(" ")[1]
    assert (await mine.act(f"reveal {cell}"))["type"] == "ack"
    moved = lambda s: s["last"]["n"] == 1  # noqa: E731
    for sock in (mine, theirs, watching):
        await sock.until(moved)
    assert texts(mine.state) == [f"Ann chose {cell} to reveal"]
    assert texts(theirs.state) == texts(watching.state) == ["Ann chose a card to reveal"]
    assert [e["n"] for e in theirs.state["log"]] == [1]

    other = theirs.state["legal"][0].split(" ")[1]
    assert (await theirs.act(f"reveal {other}"))["type"] == "ack"
    resolved = lambda s: s["view"]["phase"] == "take"  # noqa: E731
    for sock in (mine, theirs, watching):
        await sock.until(resolved)
    # the reveal resolved: everyone reads which card each seat revealed, from where
    first, second = watching.state["view"]["revealed"]
    both = [
        f"Ann revealed {article(first)} from {cell}",
        f"Bob revealed {article(second)} from {other}",
    ]
    assert texts(mine.state) == texts(theirs.state) == texts(watching.state) == both
    assert theirs.state["last"]["action"] == f"reveal {other}"
    assert mine.state["last"]["action"] == f"reveal {other}"

    # a reload: a new connection has the whole log
    again = await ann.connect(table["id"])
    await again.until(lambda s: True)
    assert texts(again.state) == both
    for sock in (mine, theirs, watching, again):
        await sock.close()


async def test_a_finished_game_says_why_and_gives_each_seat_its_verdict(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    mine, theirs = await ann.connect(table["id"]), await bob.connect(table["id"])
    for sock in (mine, theirs):
        await sock.until(lambda s: True)
    await asyncio.gather(play_greedy(mine), play_greedy(theirs))
    over = lambda s: s["table"]["status"] == "over"  # noqa: E731
    game = games.get("slide")
    for seat, sock in enumerate((mine, theirs)):
        state = await sock.until(over)
        SERVER_MESSAGE.validate_python(state)
        result = state["view"]["result"]
        assert state["ending"]["lines"] == game.result_lines(result, ["Ann", "Bob"])
        assert state["ending"]["verdict"] == game.verdict(result, seat)
        assert state["ending"]["verdict"].startswith(("You came", "You shared"))
        moves = [e for e in state["log"] if not e.get("news")]
        assert len(moves) == len(
            ann.http.get(f"/api/tables/{table['id']}/record").json()["actions"]
        )
        # the log ends with the scoring: each seat's cancelled cards, cards left and sum
        last = state["log"][-1]
        assert last["news"] and last["n"] == moves[-1]["n"] and last["who"] == ""
        for name, seat in zip(("Ann", "Bob"), result["deals"][0]["seats"], strict=True):
            assert (
                f"{name} cancelled {len(seat['removed'])} cards, {seat['remaining']} "
                f"left sum to {seat['score']}"
            ) in last["text"]
        assert last["text"].startswith("Scoring: ")
        # the figures per seat, once, from the game
        assert state["ending"]["breakdown"] == game.breakdown(state["view"])
        assert state["ending"]["notes"] == game.result_notes(result, ["Ann", "Bob"])
        assert state["to_act"] == [] and state["legal"] == [] and state["labels"] == []
    # a spectator reads why it ended, without a verdict of its own
    eve = await Client(ann.server, "Eve").connect(table["id"], token=False)
    state = await eve.until(lambda s: True)
    assert state["ending"]["verdict"] is None and state["ending"]["lines"]
    for sock in (mine, theirs, eve):
        await sock.close()


async def test_the_game_ends_saying_who_could_not_play(people):
    ann = people("Ann")
    table = ann.new_table("the-game", ["me", "greedy"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    await play_greedy(sock)
    state = await sock.until(lambda s: s["table"]["status"] == "over")
    result = state["view"]["result"]
    lines = state["ending"]["lines"]
    assert lines == games.get("the-game").result_lines(result, ["Ann", "Greedy"])
    if result.get("stuck_seat") is not None:
        assert any("could not play" in line for line in lines), lines
    assert state["ending"]["verdict"] in ("The team won!", "The team did not win.")
    # every move in words, with the names of who played it
    assert all(e["who"] in ("Ann", "Greedy (bot)") for e in state["log"])
    assert any(e["text"].startswith("Ann played ") for e in state["log"])
    await sock.close()


async def test_after_a_hand_over_the_log_keeps_the_persons_moves_under_her_name(handing_server):
    """The Game: Ann signals and plays, leaves; Bob hands her seat to a bot. Her signals
    and moves stay hers in the log, the live table's and the replay's; the bot's are its,
    on her seat."""
    bob, ann = Client(handing_server, "Bob"), Client(handing_server, "Ann")
    table = bob.new_table("the-game", ["me", "open"])
    table_id = table["id"]
    ann.post(f"/api/tables/{table_id}/join")
    hers, mine = await ann.connect(table_id), await bob.connect(table_id)
    await hers.until(lambda s: s["table"]["status"] == "running")
    await mine.until(lambda s: True)
    signal = next(a for a in hers.state["legal"] if a.startswith("signal "))
    assert (await hers.act(signal))["type"] == "ack"
    await hers.close()
    await until_gone(bob, table_id, 1)
    await asyncio.sleep(GRACE + 0.1)
    assert hand(bob, table_id, 1).status_code == 200
    await mine.until(lambda s: s["table"]["seats"][1]["bot"] == "greedy")
    await play_greedy(mine)
    state = await mine.until(lambda s: s["table"]["status"] == "over")
    first = state["log"][0]
    assert first["who"] == "Ann" and first["text"].startswith("Ann signals on "), first
    later = [e for e in state["log"][1:] if e["seat"] == 1]
    # the bot plays her seat on, and the log says for whom (#24)
    assert later and all(e["who"] == "Ann — played by Greedy" for e in later)
    replay = bob.http.get(f"/api/tables/{table_id}/replay", params={"step": 1, "log": 1}).json()
    assert replay["log"] == state["log"]
    assert replay["action"]["text"] == first["text"]
    assert replay["played_by"][1][0]["name"] == "Ann"
    assert replay["played_by"][1][1] == {
        "name": "Greedy",
        "bot": "greedy",
        "person": "Ann",
        "from": later[0]["n"],
    }
    await mine.close()


async def test_each_state_carries_only_what_the_log_gained_or_changed(people):
    """The log travels as a delta: a state carries the entries from the first one that is
    new or whose words changed (the other seat's secret reveal, once resolved), and the log
    put back from the deltas is the one a new connection is sent whole."""
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    mine, theirs = await ann.connect(table["id"]), await bob.connect(table["id"])
    for sock in (mine, theirs):
        await sock.until(lambda s: s["table"]["status"] == "running")
    moves = await asyncio.gather(play_greedy(mine, 6), play_greedy(theirs, 6))
    played = sum(moves)  # both reveal, both take: three rounds
    await theirs.until(lambda s: len(s["log"]) == played)
    sent = [m for m in theirs.messages if m["type"] == "state"]
    assert sent[0]["log_from"] == 0
    assert max(len(m["log"]) for m in sent[1:]) <= 2  # never the whole log again
    # Ann's reveal resolved after Bob's: Bob was sent it again, with its open words
    assert any(sent[k]["log_from"] < len(theirs.states[k - 1]["log"]) for k in range(1, len(sent)))
    fresh = await bob.connect(table["id"])
    whole = await fresh.until(lambda s: True)
    assert fresh.messages[0]["log_from"] == 0
    assert whole["log"] == theirs.state["log"]
    for sock in (mine, theirs, fresh):
        await sock.close()


async def test_the_replay_reads_as_the_tables_log_and_ends_with_its_figures(people):
    """A finished Slide's replay (built apart, by ``replays.py``) has the log a spectator of
    the table reads: the revealed cards, no change of mind, the scoring; its last step has
    the game's figures and notes; the step of a change of mind reads the cell it chose."""
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    mine, theirs = await ann.connect(table["id"]), await bob.connect(table["id"])
    for sock in (mine, theirs):
        await sock.until(lambda s: True)
    first, other = mine.state["legal"][0], mine.state["legal"][-1]
    for action in (first, other):  # Ann changes her mind
        assert (await mine.act(action))["type"] == "ack"
    await asyncio.gather(play_greedy(mine), play_greedy(theirs))
    eve = await Client(ann.server, "Eve").connect(table["id"], token=False)
    state = await eve.until(lambda s: s["table"]["status"] == "over")
    url = f"/api/tables/{table['id']}/replay"
    steps = len(ann.http.get(f"/api/tables/{table['id']}/record").json()["actions"])
    end = ann.http.get(url, params={"step": steps, "log": 1}).json()
    assert end["log"] == state["log"]
    assert end["log"][0]["n"] == 1 and end["log"][-1]["news"]
    game = games.get("slide")
    assert end["ending"]["breakdown"] == game.breakdown(end["view"])
    assert end["ending"]["notes"] == game.result_notes(end["view"]["result"], ["Ann", "Bob"])
    assert end["ending"]["verdict"] is None
    changed = ann.http.get(url, params={"step": 1}).json()
    assert changed["action"]["text"] == f"Ann chose {first.split()[1]} to reveal"
    assert changed["ending"] is None
    for sock in (mine, theirs, eve):
        await sock.close()
