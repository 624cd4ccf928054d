"""Which language a reader reads (``cardtable.i18n.languages``): a saved choice, a cookie,
``Accept-Language``, a terminal's ``LANG``; English when nothing names one of ours."""

from __future__ import annotations

from cardtable.i18n.languages import choose, from_accept_language, from_environment, known


def test_codes_as_readers_software_sends_them():
    assert known("cs-CZ") == known("cs_CZ.UTF-8") == known("CS") == "cs"
    assert known("no") == known("nn-NO") == known("nb_NO.utf8") == "nb"
    assert known("fr") is None and known("") is None and known(None) is None
    assert known("en-XA") == "en-XA"


def test_accept_language_by_its_weights():
    assert from_accept_language("cs-CZ,cs;q=0.9,en;q=0.8") == "cs"
    assert from_accept_language("fr-FR,fr;q=0.9,de;q=0.5,sk;q=0.7") == "sk"
    assert from_accept_language("fr,it;q=0.5") is None
    assert from_accept_language("de;q=0,en;q=0.1") == "en"
    assert from_accept_language("de;q=abc, sk") == "sk"  # a broken weight is skipped
    assert from_accept_language("x" * 5000) is None


def test_a_saved_choice_wins_then_the_cookie_then_the_header():
    assert choose("de", "cs", "sk") == "de"
    assert choose(None, "cs", "sk") == "cs"
    assert choose(None, "zz", "sk") == "sk"
    assert choose(None, None, None) == "en"


def test_the_terminal_follows_lang_as_gettext_does():
    assert from_environment({"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert from_environment({"LANG": "cs_CZ.UTF-8", "LC_ALL": "de_DE.UTF-8"}) == "de"
    assert from_environment({"LANGUAGE": "fr:nb", "LANG": "en_US.UTF-8"}) == "nb"
    assert from_environment({"LANG": "C"}) == "en"
    assert from_environment({}) == "en"
