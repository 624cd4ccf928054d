"""The terminal game in the player's language: ``LANG`` (or ``--lang``, which wins) picks it,
every word of the ``tui`` domain is translated, and ``LANG=C`` reads English."""

from __future__ import annotations

import json
import random
from pathlib import Path

import polib
import pytest
from textual.widgets import Input, Label, OptionList, Static
from typer.testing import CliRunner

from cardtable import cli, games
from cardtable.core.words import Text as Words
from cardtable.i18n.catalogs import pot_path
from cardtable.i18n.reader import Reader
from cardtable.tui.app import PlayApp
from cardtable.tui.replay import ReplayApp
from cardtable.tui.widgets import Board, ConfirmQuit, HandOver

#: words that read the same in every language on purpose: placeholders and punctuation only
SAME = {"{seat} ({name})", "{peeking}: {answer}", "{answer} (y)"}
TEMPLATE = [e for e in polib.pofile(str(pot_path("tui"))) if e.msgid]
#: the terminal's English words with no placeholder, long enough to find in a screen's text
ENGLISH = sorted({e.msgid for e in TEMPLATE if "{" not in e.msgid and len(e.msgid) >= 4})
GAMES = [("slide", ["me", "greedy"]), ("the-game", ["me", "greedy"]), ("doublets", ["me"])]


@pytest.mark.parametrize("lang", ["cs", "sk", "de", "nb"])
def test_every_word_of_the_terminal_is_translated(lang: str) -> None:
    read = Reader(lang)
    for entry in TEMPLATE:
        if entry.msgid_plural:
            for n in (1, 2, 5):
                text = Words("tui", entry.msgid, {}, entry.msgid_plural, n)
                english = entry.msgid if n == 1 else entry.msgid_plural
                assert read.template(text) != english, (lang, english)
        elif entry.msgid not in SAME:
            assert read.template(Words("tui", entry.msgid, {})) != entry.msgid, (lang, entry.msgid)


def test_czech_counts_have_three_forms() -> None:
    read = Reader("cs")
    cards = [read(Words("tui", "{n} card", {"n": n}, "{n} cards", n)) for n in (1, 2, 5)]
    assert cards == ["1 karta", "2 karty", "5 karet"]
    drawn = [
        read(Words("tui", "You drew {n} card.", {"n": n}, "You drew {n} cards.", n))
        for n in (1, 3, 7)
    ]
    assert drawn == [
        "Dobrali jste si 1 kartu.",
        "Dobrali jste si 3 karty.",
        "Dobrali jste si 7 karet.",
    ]


def finished_record(game: str, players: int, seed: int) -> dict:
    state = games.get(game).deal(seed, players)
    state.playout(["greedy"] * players, random.Random(seed))
    return state.record()


def terminal_words(app: PlayApp) -> str:
    """What the screen says in the terminal's own words: the title, the board, the status
    line, the message, the typed move's prompt, the footer's keys and the rows of the move
    list that are not moves (the moves and the log are the game's words)."""
    moves = app.query_one("#moves", OptionList).options
    parts = [
        app.title,
        app.query_one("#board", Board).render().plain,
        str(app.query_one("#status", Static).render()),
        str(app.query_one("#message", Static).render()),
        app.query_one("#entry", Input).placeholder,
        *(str(key.description) for key in app.query("FooterKey")),
        *(str(o.prompt) for o in moves if o.id is None),
    ]
    return "\n".join(parts)


def english_in(words: str) -> list[str]:
    return [w for w in ENGLISH if w in words]


@pytest.mark.parametrize(("game", "seats"), GAMES)
async def test_the_play_screen_reads_in_czech_with_lang(
    game: str, seats: list[str], data_dir: Path, ui, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    app = PlayApp(game, seats, 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        await pilot.pause()  # the footer is built once the screen is idle
        words = terminal_words(app)
        assert "Jste na tahu." in words and "Konec" in words  # "Your move.", "Quit"
        assert "↑↓ a Enter v seznamu tahů" in words
        assert english_in(words) == []
        # the log's own lines: the seats in Czech
        assert any("vy" in line for line in app.events)
        await pilot.press("q")  # in the middle of the game: the question, in Czech
        assert isinstance(app.screen, ConfirmQuit)
        question = "\n".join(str(label.render()) for label in app.screen.query(Label))
        assert "Odejít ze hry před koncem?" in question


async def test_the_slide_board_speaks_czech(data_dir: Path, ui, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        board = ui.board_text(app)
        assert "kolo 1 z 16" in board and "Střed:" in board and "místo 2 (greedy)" in board
        await ui.click_card(pilot, "cell 0 b2")  # reveal: then the take
        await ui.click_card(pilot, "cell 0 a2")  # no centre card selected yet
        assert "Nejdřív vyberte kartu ze středu" in ui.message(app)


async def test_lang_wins_over_the_terminal(data_dir: Path, ui, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    app = PlayApp("doublets", ["me"], 42, {}, bot_delay=0.0, lang="de")
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        await pilot.pause()  # the footer is built once the screen is idle
        words = terminal_words(app)
        assert "Beenden" in words and "Talon" in words and "Ablage" in words
        assert "Konec" not in words and english_in(words) == []


async def test_lang_c_reads_english(data_dir: Path, ui, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "C")
    app = PlayApp("the-game", ["me", "greedy"], 3, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        await pilot.pause()  # the footer is built once the screen is idle
        words = terminal_words(app)
        assert "Your move." in words and "Quit" in words and "End turn" in words


def test_a_replay_reads_in_german_with_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cardtable replay FILE --lang de``, through the command, on a Czech terminal."""
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    record = finished_record("doublets", 1, 5)
    path = tmp_path / "doublets.json"
    path.write_text(json.dumps(record))
    seen: dict[str, str] = {}

    async def reader(pilot) -> None:
        app = pilot.app
        await pilot.pause()  # the footer is built once the screen is idle
        seen["first"] = str(app.query_one("#step", Static).render())
        seen["board"] = app.query_one("#board", Board).render().plain
        seen["footer"] = " ".join(str(key.description) for key in app.query("FooterKey"))
        seen["title"] = app.title
        await pilot.press("end")
        seen["last"] = str(app.query_one("#step", Static).render())
        seen["end"] = app.query_one("#board", Board).render().plain
        await pilot.press("q")

    run = ReplayApp.run

    def headless(self: ReplayApp, *args: object, **kwargs: object) -> None:
        run(self, headless=True, size=(120, 36), auto_pilot=reader)

    monkeypatch.setattr(ReplayApp, "run", headless)
    done = CliRunner().invoke(cli.app, ["replay", str(path), "--lang", "de"])
    assert done.exit_code == 0, done.output
    last = len(record["actions"])
    assert f"Schritt 0 von {last}" in seen["first"] and "das Austeilen" in seen["first"]
    assert "Talon" in seen["board"] and "Ablage" in seen["board"]
    assert "Weiter" in seen["footer"] and "Beenden" in seen["footer"]
    assert seen["title"].startswith("cardtable Wiederholung · Doublets")
    assert f"Schritt {last} von {last}" in seen["last"] and "Spielende" in seen["last"]
    assert "Spiel vorbei." in seen["end"]  # the end, in German (the game's own words follow)
    for words in seen.values():
        assert english_in(words) == [], words


def test_an_unknown_language_is_refused() -> None:
    done = CliRunner().invoke(cli.app, ["play", "doublets", "--lang", "tlh"])
    assert done.exit_code == 2
    assert "no language called 'tlh'" in done.output


async def test_two_people_hand_over_in_slovak(data_dir: Path, ui, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "sk_SK.UTF-8")
    app = PlayApp("slide", ["me", "me"], 5, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.select_move(pilot, "reveal a1")
        assert isinstance(app.screen, HandOver)
        words = str(app.screen.query_one(Static).render())
        assert words.startswith("Miesto 2: ste na ťahu.") and "stlačte Enter" in words
        assert "— pri klávesnici: miesto 2 —" in app.events


def test_the_command_tells_the_saved_game_in_czech(
    data_dir: Path, ui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cardtable play`` under ``LANG=cs_CZ.UTF-8``: leaving in the middle (q, then y) asks
    in Czech, and what the command prints after the screen reads in Czech too."""
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    asked: list[str] = []

    async def person(pilot) -> None:
        await ui.settle(pilot)
        await ui.select_move(pilot, "flip")
        await pilot.press("q")
        asked.extend(str(label.render()) for label in pilot.app.screen.query(Label))
        await pilot.press("y")

    run = PlayApp.run

    def headless(self: PlayApp, *args: object, **kwargs: object) -> Path | None:
        return run(self, headless=True, size=ui.SIZE, auto_pilot=person)

    monkeypatch.setattr(PlayApp, "run", headless)
    done = CliRunner().invoke(cli.app, ["play", "doublets", "--seed", "42"])
    assert done.exit_code == 0, done.output
    (saved,) = (data_dir / "records").glob("doublets-*.json")
    assert "Odejít ze hry před koncem?" in asked[0]
    output = done.output.replace("\n", "")
    assert "Odešli jste před koncem" in output
    assert f"Záznam uložen: {saved}" in output
    assert f"Přehrajete ho příkazem: cardtable replay {saved}" in output
