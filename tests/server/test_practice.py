"""Practice tables and tutorials against the real server (issue #27): a practice table
starts at the asked step of a finished solitaire, is unrated and counts in no statistics;
unfinished, shared and bad steps are refused; a tutorial's tutor speaks to its learner,
explains a deviation, and a finished tutorial is remembered."""

from __future__ import annotations

from cardtable import games

DOUBLETS = games.tutorial("doublets")


def doublets_line() -> list[str]:
    """The Doublets tutorial's winning line (its deal, played alone)."""
    game = games.get("doublets")
    state = DOUBLETS.deal(game)
    out = []
    while not state.over:
        move = DOUBLETS.suggest(state, 0)
        out.append(move)
        state.act(0, move)
    return out


async def tutor_of(person, table_id: str) -> dict:
    """The tutor's answer, waiting as asked when the tutor is asked too often."""
    import asyncio

    while True:
        answer = person.http.get(f"/api/tables/{table_id}/tutor")
        if answer.status_code != 429:
            assert answer.status_code == 200, answer.text
            return answer.json()
        await asyncio.sleep(answer.json()["retry_after"])


async def play(sock, actions: list[str]) -> None:
    for action in actions:
        answer = await sock.act(action)
        assert answer["type"] == "ack", answer


async def finished_doublets(person) -> tuple[str, list[str]]:
    line = doublets_line()
    table = person.post("/api/tables", {"game": "doublets", "seats": ["me"], "seed": DOUBLETS.seed})
    sock = await person.connect(table["id"])
    await sock.until(lambda s: True)
    await play(sock, line)
    await sock.until(lambda s: s["table"]["status"] == "over")
    await sock.close()
    return table["id"], line


async def test_a_practice_table_starts_at_the_step_and_counts_in_no_statistics(people):
    ann = people("Ann")
    table_id, line = await finished_doublets(ann)
    stats = ann.http.get("/api/stats/doublets").json()
    assert stats["played"] == 1 and stats["won"] == 1
    practice = ann.post(f"/api/tables/{table_id}/practice", {"step": 10})
    assert practice["practice"] == "practice" and practice["id"] != table_id
    assert practice["seed"] == str(DOUBLETS.seed)  # its deal number is known to its player
    assert practice["status"] == "running" and practice["version"] == 10
    sock = await ann.connect(practice["id"])
    state = await sock.until(lambda s: True)
    expected = DOUBLETS.deal(games.get("doublets"))
    for action in line[:10]:
        expected.act(0, action)
    assert state["view"] == expected.view(0)
    await play(sock, line[10:])  # played on live, to the end
    await sock.until(lambda s: s["table"]["status"] == "over")
    await sock.close()
    assert ann.http.get("/api/stats/doublets").json() == stats
    mine = ann.http.get("/api/my-games").json()["finished"]
    assert {g["id"]: g["practice"] for g in mine}[practice["id"]] == "practice"


async def test_practice_refuses_unfinished_shared_and_bad_steps(people):
    ann, bob = people("Ann"), people("Bob")
    table_id, line = await finished_doublets(ann)
    for step in (len(line), len(line) + 1):  # the end (over) and beyond
        answer = ann.http.post(f"/api/tables/{table_id}/practice", json={"step": step})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_step", answer.text
    assert ann.http.post(f"/api/tables/{table_id}/practice", json={"step": -1}).status_code == 422
    # anyone may practise a finished solitaire (its record is public)
    assert bob.post(f"/api/tables/{table_id}/practice", {"step": 0})["practice"] == "practice"
    running = ann.post("/api/tables", {"game": "doublets", "seats": ["me"]})
    answer = ann.http.post(f"/api/tables/{running['id']}/practice", json={"step": 0})
    assert answer.status_code == 403 and answer.json()["error"] == "not_over"
    shared = ann.new_table("the-game", ["me", "greedy"])
    ann.post(f"/api/tables/{shared['id']}/leave")  # bots only: closed, over
    answer = ann.http.post(f"/api/tables/{shared['id']}/practice", json={"step": 0})
    assert answer.status_code == 403 and answer.json()["error"] == "not_alone"
    missing = ann.http.post("/api/tables/nosuchtable/practice", json={"step": 0})
    assert missing.status_code == 404


async def test_a_tutorial_is_taught_to_its_end_and_remembered(people):
    ann, bob = people("Ann"), people("Bob")
    listed = ann.http.get("/api/tutorials").json()
    assert {t["game"] for t in listed} == set(games.names())
    assert not any(t["done"] for t in listed)
    table = ann.post("/api/tutorials/doublets")
    assert table["practice"] == "tutorial" and table["seed"] == str(DOUBLETS.seed)
    tutor = ann.http.get(f"/api/tables/{table['id']}/tutor").json()
    assert tutor["suggest"] == "flip" and tutor["text"] and tutor["text_msg"]
    assert tutor["text_msg"][0]["domain"] == "doublets"
    # only the learner hears the tutor; an ordinary table has none
    assert bob.http.get(f"/api/tables/{table['id']}/tutor").status_code == 403
    plain = ann.post("/api/tables", {"game": "doublets", "seats": ["me"]})
    assert ann.http.get(f"/api/tables/{plain['id']}/tutor").status_code == 403
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    await play(sock, doublets_line())
    await sock.until(lambda s: s["table"]["status"] == "over")
    await sock.close()
    tutor = ann.http.get(f"/api/tables/{table['id']}/tutor").json()
    assert tutor["done"] and tutor["suggest"] is None
    done = {t["game"]: t["done"] for t in ann.http.get("/api/tutorials").json()}
    assert done == {"doublets": True, "slide": False, "the-game": False}
    assert ann.http.get("/api/stats/doublets").json()["played"] == 0
    assert ann.http.post("/api/tutorials/chess", json={}).status_code == 404


async def test_a_deviation_is_explained_and_a_slide_tutorial_is_unrated(people):
    ann = people("Ann")
    table = ann.post("/api/tutorials/slide")
    assert table["practice"] == "tutorial" and len(table["seats"]) == 3
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: 0 in s["to_act"])
    first = ann.http.get(f"/api/tables/{table['id']}/tutor").json()
    other = next(a for a in sock.state["legal"] if a != first["suggest"])
    assert (await sock.act(other))["type"] == "ack"
    tutor = ann.http.get(f"/api/tables/{table['id']}/tutor").json()
    assert tutor["instead"] == first["suggest"] and "Ann" in tutor["played"]
    assert tutor["played_msg"]["domain"] == "slide" and tutor["text"]
    # the rest along the tutor's suggestions, to the end
    while True:
        state = await sock.until(
            lambda s: s["table"]["status"] == "over" or (0 in s["to_act"] and s["legal"])
        )
        if state["table"]["status"] == "over":
            break
        tutor = await tutor_of(ann, table["id"])
        if tutor["suggest"] is None or tutor["suggest"] not in state["legal"]:
            await sock.recv()  # a newer state is on its way
            continue
        await sock.act(tutor["suggest"])
    await sock.close()
    assert ann.http.get("/api/leaderboard", params={"game": "slide"}).json() == []
    assert (await tutor_of(ann, table["id"]))["done"]


async def test_the_tutor_refuses_a_flood_with_a_wait(people):
    ann = people("Ann")
    table = ann.post("/api/tutorials/the-game")
    answers = [ann.http.get(f"/api/tables/{table['id']}/tutor") for _ in range(30)]
    refused = [a for a in answers if a.status_code == 429]
    assert refused and refused[0].json()["error"] == "rate_limited"
    assert refused[0].json()["retry_after"] > 0
    assert all(a.status_code == 200 for a in answers[:20])
