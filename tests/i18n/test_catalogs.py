"""The catalogs (``cardtable.i18n``): complete in every language, current with the sources,
CLDR's plural rules in Python and for the browser, and the tests' pseudo-language."""

from __future__ import annotations

from cardtable.core.words import translatable
from cardtable.i18n import tool
from cardtable.i18n.catalogs import (
    browser_catalog,
    domains,
    plural_categories,
    pot_path,
    pseudo_words,
    read_catalog,
)
from cardtable.i18n.reader import Reader


def test_every_catalog_is_complete():
    """No entry missing, empty or fuzzy in any language, and each translation's placeholders
    are the source's (python -m cardtable.i18n check)."""
    assert tool.check() == []


def test_the_templates_hold_every_marked_word():
    """The committed templates are what extraction finds today (after changing words: python
    -m cardtable.i18n extract, then update, then translate)."""
    fresh = tool.extract()
    for domain in domains():
        committed = {m.id for m in read_catalog(pot_path(domain)) if m.id}
        found = {m.id for m in fresh[domain] if m.id}
        assert found == committed, f"{domain}: run python -m cardtable.i18n extract"


def test_czech_counts_have_three_forms_as_cldr_says():
    assert plural_categories("cs") == {
        "one": 0,
        "few": 1,
        "many": 2,
        "other": 2,
        "zero": 2,
        "two": 2,
    }
    assert plural_categories("de")["one"] == 0 and plural_categories("de")["other"] == 1
    assert browser_catalog("cs")["plural"]["few"] == 1


def test_the_pseudo_language_marks_and_lengthens_every_word():
    words = pseudo_words("{who} revealed a {card}")
    assert words.startswith("⟦") and words.endswith("⟧")
    assert "{who}" in words and "{card}" in words and "ŕévéàléd" in words
    assert len(words) >= 1.4 * len("revealed a")


def test_a_reader_renders_english_when_a_word_has_no_translation():
    _, _n = translatable("cardtable")
    text = _("{who} has no word for this yet", who="Ann")
    assert Reader("cs")(text) == "Ann has no word for this yet"
    assert Reader("de").number(12345) == "12.345" and Reader("cs").number(7) == "7"
