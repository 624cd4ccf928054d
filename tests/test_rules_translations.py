"""The rules pages in every language (#26): each game has a page in each language, written
over the English one (``docs/rules/GAME.md``) as ``docs/rules/LANG/GAME.md``, with the same
headings at the same levels and every move the English page writes in notation, as players
type it; and the terminal's locale chooses the language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.i18n.languages import LANGUAGES, from_environment, known
from cardtable.paths import rules_page

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
GAMES = sorted(path.stem for path in RULES.glob("*.md"))
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PAGES = [(game, lang) for game in GAMES for lang in TRANSLATED]

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s")
CODE = re.compile(r"`([^`\n]+)`")


def outside_fences(text: str) -> list[str]:
    """The page's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def heading_levels(text: str) -> list[int]:
    """The level of each heading, in order."""
    return [len(m.group(1)) for line in outside_fences(text) if (m := HEADING.match(line))]


def code_spans(text: str) -> set[str]:
    return set(CODE.findall("\n".join(outside_fences(text))))


def notation(english: str) -> set[str]:
    """The English page's code spans that are moves in notation: the moves of its "Writing
    moves" table, any span that starts with one of their verbs (``(play r3)`` too), and the
    single words they are made of (``left``, ``up1``)."""
    table = english.split("## Writing moves", 1)[1].split("\n## ", 1)[0]
    moves = {m for row in table.splitlines() if row.startswith("| `") for m in CODE.findall(row)}
    verbs = {move.split()[0] for move in moves}
    words = {word for move in moves for word in move.split()} - verbs
    found = set()
    for span in code_spans(english):
        parts = span.strip("()").split()
        if parts and (parts[0] in verbs or (len(parts) == 1 and parts[0] in words)):
            found.add(span)
    return found


def test_every_game_has_a_page_in_every_language() -> None:
    assert GAMES == ["doublets", "slide", "the-game"]
    missing = [
        f"{lang}/{game}.md"
        for game, lang in PAGES
        if not (RULES / lang).joinpath(f"{game}.md").exists()
    ]
    assert not missing
    # and nothing else: a stray page would be served for no game
    assert {p.relative_to(RULES).as_posix() for p in RULES.glob("*/*.md")} == {
        f"{lang}/{game}.md" for game, lang in PAGES
    }


@pytest.mark.parametrize(("game", "lang"), PAGES)
def test_a_translation_has_the_english_headings_and_notation(game: str, lang: str) -> None:
    english = (RULES / f"{game}.md").read_text(encoding="utf-8")
    page = (RULES / lang / f"{game}.md").read_text(encoding="utf-8")
    assert heading_levels(page) == heading_levels(english)
    assert page.splitlines()[0] == english.splitlines()[0]  # the game's name, as published
    moves = notation(english)
    assert len(moves) >= 5, moves  # the finder finds the moves
    assert sorted(moves - code_spans(page)) == []
    # written anew: no English sentence of the page left in it
    sentences = {s for s in re.split(r"(?<=[.:])\s+", " ".join(outside_fences(english)))}
    copied = [s for s in sentences if len(s) > 40 and "`" not in s and s in page]
    assert not copied


def test_the_notation_finder_finds_moves_and_only_moves() -> None:
    slide = notation((RULES / "slide.md").read_text(encoding="utf-8"))
    assert {"reveal b3", "take 7 left", "left", "top", "take 2 bottom"} <= slide
    assert not {"a1", "?", "cardtable play slide"} & slide
    doublets = notation((RULES / "doublets.md").read_text(encoding="utf-8"))
    assert {"flip", "redeal", "play waste", "play r3", "(play r3)"} <= doublets
    assert "(2 x top) mod 13" not in doublets
    the_game = notation((RULES / "the-game.md").read_text(encoding="utf-8"))
    assert {"play 34 up1", "end", "signal down2 avoid", "up1", "down2"} <= the_game


@pytest.mark.parametrize("lang", TRANSLATED)
def test_rules_page_gives_the_page_in_a_language_and_english_otherwise(lang: str) -> None:
    text, written_in = rules_page("slide", lang)
    assert written_in == lang
    assert text == (RULES / lang / "slide.md").read_text(encoding="utf-8")
    for missing in ("fr", "en", "../..", ""):
        text, written_in = rules_page("slide", missing)
        assert written_in == "en" and text.startswith("# Slide\n\nSlide is a game")


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        ("cs_CZ.UTF-8", "cs"),
        ("sk_SK", "sk"),
        ("de_AT.UTF-8@euro", "de"),
        ("de-CH", "de"),
        ("nb_NO.UTF-8", "nb"),
        ("no_NO", "nb"),
        ("nn_NO", "nb"),
        ("en_GB.UTF-8", "en"),
        ("fr_FR.UTF-8", None),
        ("C", None),
        ("", None),
    ],
)
def test_a_locale_names_a_language(name: str, lang: str | None) -> None:
    assert known(name) == lang


def test_the_terminal_follows_its_locale_variables_as_gettext_does() -> None:
    assert from_environment({}) == "en"
    assert from_environment({"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert from_environment({"LANG": "cs_CZ.UTF-8", "LC_MESSAGES": "de_DE"}) == "de"
    assert from_environment({"LC_MESSAGES": "de_DE", "LC_ALL": "sk_SK.UTF-8"}) == "sk"
    assert from_environment({"LC_ALL": "sk_SK", "LANGUAGE": "fr:nb:en"}) == "nb"
    assert from_environment({"LANG": "C.UTF-8"}) == "en"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "en"  # none of ours: English
    assert from_environment({"LC_ALL": "", "LANG": "nn_NO"}) == "nb"  # empty is unset
