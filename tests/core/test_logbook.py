"""The game log's words as each viewer reads them (``core.logbook``), without a server or a
screen: a secret reveal in public words until every seat has chosen, then its card for
everyone; a change of mind no line at all; a deal's scoring at its end (issue #24)."""

from __future__ import annotations

from cardtable import games
from cardtable.bots import make_bot
from cardtable.core.logbook import add, as_read, new_logbook

SLIDE = games.get("slide")
NAMES = ["Ann", "Bob", "Cy"]


def texts(log, viewer: int | None) -> list[str]:
    return [e["text"] for e in as_read(log.entries, viewer)]


def test_a_reveal_is_secret_until_every_seat_has_chosen() -> None:
    log = new_logbook(SLIDE, 3, 3, {})
    add(SLIDE, log, 0, "reveal a1", "Ann")
    add(SLIDE, log, 0, "reveal c3", "Ann")  # a change of mind
    add(SLIDE, log, 1, "reveal b2", "Bob")
    assert texts(log, 0) == ["Ann chose c3 to reveal", "Bob chose a card to reveal"]
    assert texts(log, 2) == ["Ann chose a card to reveal", "Bob chose a card to reveal"]
    assert texts(log, None) == texts(log, 2)
    add(SLIDE, log, 2, "reveal d4", "Cy")
    revealed = log.shadow.view(None)["revealed"]
    for viewer in (0, 1, 2, None):
        assert [t.split(" revealed ")[0] for t in texts(log, viewer)] == NAMES
        assert texts(log, viewer)[0].endswith(f" {revealed[0]} from c3")


def test_a_deal_ends_with_its_scoring_for_everyone() -> None:
    state = SLIDE.deal(7, 2, {})
    log = new_logbook(SLIDE, 7, 2, {})
    bots = [make_bot("greedy", "slide") for _ in range(2)]
    while not state.over:
        seat = state.to_act()[0]
        action = bots[seat].choose(state.view(seat), state.legal(seat))
        state.act(seat, action)
        add(SLIDE, log, seat, action, NAMES[seat])
    news = [e for e in as_read(log.entries, 1) if e.get("news")]
    assert len(news) == 1 and news[0]["text"].startswith("Scoring: Ann cancelled ")
    assert texts(log, 0)[-1] == texts(log, None)[-1] == news[0]["text"]
