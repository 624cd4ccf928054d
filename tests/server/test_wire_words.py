"""A real server sends its words for people as message ids with arguments beside the
English (docs/server.md, "Words in each reader's language"): a log entry's ``msg``, the
ending's, a move label's, a refusal's over the websocket and over HTTP, a seat's name and a
chat phrase, each reading as its English and in Czech in other words."""

from __future__ import annotations

import asyncio

from cardtable.core.words import unwire
from cardtable.i18n.reader import Reader
from server.test_seats import play_greedy

english, czech = Reader("en"), Reader("cs")


def reads(english_words: str, data: object) -> str:
    """``data`` (wire words) in Czech, checked to read as ``english_words`` in English."""
    words = unwire(data)
    assert english(words) == english_words
    return czech(words)


async def test_a_slide_game_sends_its_log_ending_and_refusals_as_words(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    socks = [await c.connect(table["id"]) for c in (ann, bob)]
    await socks[1].until(lambda s: True)
    state = await socks[0].until(lambda s: s["table"]["status"] == "running" and s["legal"])
    # a refusal of the rules: not a cell
    refused = await socks[0].act("reveal z9")
    assert refused["type"] == "error"
    assert reads(refused["message"], refused["msg"]) == "'z9' není pole mřížky: pole jsou a1 " + (
        "(vlevo nahoře) až d4 (vpravo dole)"
    )
    # the move buttons' labels and the seats' names
    assert len(state["labels_msg"]) == len(state["labels"])
    for label, said in zip(state["labels"], state["labels_msg"], strict=True):
        reads(label, said)
    seats = state["table"]["seats"]
    assert [english(unwire(s["shown"])) for s in seats] == ["Ann", "Bob"]
    await asyncio.gather(*(play_greedy(sock) for sock in socks))
    end = await socks[1].until(lambda s: s["table"]["status"] == "over")
    for entry in end["log"]:
        assert reads(entry["text"], entry["msg"]) != entry["text"]
    ending = end["ending"]
    for line, said in zip(ending["lines"], ending["msg"]["lines"], strict=True):
        reads(line, said)
    assert reads(ending["verdict"], ending["msg"]["verdict"]).startswith(("Skončili", "O "))
    columns = zip(ending["breakdown"]["columns"], ending["msg"]["columns"], strict=True)
    assert [reads(c, m) for c, m in columns] == ["součet", "zbylé karty", "zrušené"]
    assert reads(ending["notes"][0], ending["msg"]["notes"][0]).startswith("Karty, které")
    for sock in socks:
        await sock.close()


async def test_http_refusals_and_chat_phrases_carry_words(people):
    ann = people("Ann")
    answer = ann.http.get("/api/tables/nothing-here")
    body = answer.json()
    assert answer.status_code == 404
    assert reads(body["message"], body["msg"]) == "stůl 'nothing-here' neexistuje"
    table = ann.new_table("the-game", ["me", "greedy"])
    sock = await ann.connect(table["id"])
    await sock.until(lambda s: True)
    while not any(m["type"] == "chat" for m in sock.messages):
        await sock.recv()
    chat = next(m for m in sock.messages if m["type"] == "chat")
    phrases = chat["settings"]["phrases"]
    assert [reads(p, m) for p, m in zip(phrases, chat["settings"]["phrases_msg"], strict=True)]
    await sock.ws.send('{"type": "chat", "text": "Ready"}')
    line = None
    while line is None:
        message = await sock.recv()
        if message["type"] == "chat" and message["messages"]:
            line = message["messages"][-1]
    assert reads(line["text"], line["msg"]) == "Připraven"
    await sock.close()
