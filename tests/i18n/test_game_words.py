"""The games' words travel as message ids with arguments (``core.words``): every log entry,
ending and refusal of every game renders in English exactly as its ``text`` reads, in Czech
from a complete catalog, and its arguments carry nothing the words do not say (a viewer's
wire words are built from that viewer's own words)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.core.errors import CardtableError
from cardtable.core.logbook import add, as_read, new_logbook
from cardtable.core.words import PLACEHOLDER, Text, unwire, wire
from cardtable.i18n.catalogs import po_path, read_catalog
from cardtable.i18n.reader import Reader

GAMES = {"slide": (2, 4), "doublets": (1, 1), "the-game": (1, 4)}
NAMES = ["Ann", "Bob", "Cy", "Dee"]
english, czech = Reader("en"), Reader("cs")


def played(name: str, seed: int, players: int) -> Any:
    """A random game of ``name`` played to its end, its log and its state."""
    game = games.get(name)
    state = game.deal(seed, players)
    state.playout(["random"] * players, random.Random(seed))
    log = new_logbook(game, seed, players, {})
    for seat, action in state.actions:
        add(game, log, seat, action, NAMES[seat])
    return game, state, log


def texts(value: Any) -> list[Text]:
    """Every ``Text`` in ``value``'s words, its arguments' too."""
    if not isinstance(value, Text):
        return []
    return [value, *(t for arg in value.args.values() for t in texts(arg))]


def translated(lang: str) -> dict[tuple[str, str], bool]:
    """(domain, msgid) -> whether ``lang``'s catalog translates it (every form)."""
    out = {}
    for domain in ("cardtable", *GAMES):
        for m in read_catalog(po_path(lang, domain), lang):
            if m.id:
                key = m.id[0] if isinstance(m.id, tuple) else m.id
                forms = m.string if isinstance(m.string, tuple) else (m.string,)
                out[domain, key] = all(forms) and not m.fuzzy
    return out


CZECH = translated("cs")


def check_words(english_words: str, data: Any) -> None:
    """``data`` (wire words) reads as ``english_words`` in English, every message it uses is
    in Czech's catalog, and it carries no argument its template does not show."""
    words = unwire(json.loads(json.dumps(data)))  # as a client receives it
    assert english(words) == english_words
    for t in texts(words):
        assert CZECH.get((t.domain, t.msgid)), f"not in Czech: {t.domain} {t.msgid!r}"
        shown = set(PLACEHOLDER.findall(t.msgid)) | set(PLACEHOLDER.findall(t.plural or ""))
        assert set(t.args) <= shown, f"{t.msgid!r} carries {set(t.args) - shown}"
    assert czech(words)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_every_log_entry_reads_as_its_text_in_english(name: str, seed: int, data: Any) -> None:
    low, high = GAMES[name]
    players = data.draw(st.integers(low, high))
    game, state, log = played(name, seed, players)
    for viewer in (None, *range(players)):
        for entry in as_read(log.entries, viewer):
            assert isinstance(entry["text"], Text), entry["text"]
            check_words(entry["text"], entry["msg"])


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_every_ending_and_label_reads_as_its_text(name: str, seed: int, data: Any) -> None:
    low, high = GAMES[name]
    players = data.draw(st.integers(low, high))
    game, state, _log = played(name, seed, players)
    names = NAMES[:players]
    result, view = state.result(), state.view(None)
    breakdown = game.breakdown(view)
    assert breakdown is not None
    words = [
        *game.result_lines(result, names),
        *game.result_notes(result, names),
        *(game.verdict(result, s) for s in range(players)),
        *breakdown["columns"],
        *(row[0] for row in breakdown["table"]),
    ]
    for said in words:
        assert isinstance(said, Text), said
        check_words(said, wire(said))
    for option in game.options:
        check_words(option.title, wire(option.title))
        check_words(option.doc, wire(option.doc))


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_every_refusal_reads_as_its_reason(name: str, seed: int, data: Any) -> None:
    """The rules' refusals a person sees (wrong card, not your turn, nonsense) are words."""
    low, high = GAMES[name]
    players = data.draw(st.integers(low, high))
    game = games.get(name)
    state = game.deal(seed, players)
    rng = random.Random(seed)
    tries = ["take 7 up", "reveal z9", "play 34 up1", "play r3", "flip", "redeal", "end"]
    tries += ["take 11 left", "play 1 up1", "signal up1 small", "signal up3 good", "nonsense"]
    refused = 0
    for _turn in range(40):
        if state.over:
            break
        for seat in range(players):
            for action in [*tries, *state.legal(seat)[:3]]:
                probe = state.clone()
                try:
                    probe.act(seat, action)
                except CardtableError as e:
                    refused += 1
                    assert isinstance(e.reason, Text), e.reason
                    check_words(e.reason, wire(e.reason))
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    assert refused
    with pytest.raises(CardtableError) as over:
        state.act(players, "end")  # no such seat
    check_words(over.value.reason, wire(over.value.reason))


def test_czech_counts_a_real_message_in_three_forms() -> None:
    """The Game's cards left: 1 karta, 2 karty, 5 karet."""
    game = games.get("the-game")
    result = {"over": True, "won": False, "good": True, "stuck_seat": None, "short_by": 0}
    said = {n: czech(game.result_lines({**result, "cards_left": n}, ["Ann"])[0]) for n in (1, 2, 5)}
    assert "1 karta" in said[1]
    assert "2 karty" in said[2]
    assert "5 karet" in said[5]
    assert len(set(said.values())) == 3


def test_a_seat_reads_its_own_cell_the_others_only_that_a_card_was_chosen() -> None:
    """Slide's reveal: the other seats' wire words carry no cell until every seat chose."""
    game = games.get("slide")
    log = new_logbook(game, 7, 2, {})
    add(game, log, 0, "reveal b2", "Ann")
    mine, theirs = as_read(log.entries, 0)[0], as_read(log.entries, 1)[0]
    assert "b2" in json.dumps(mine["msg"])
    assert "b2" not in json.dumps(theirs["msg"])
    assert czech(unwire(theirs["msg"])) != theirs["text"]
