"""The languages cardtable speaks, and how a reader's language is chosen.

A language is a short code (``cs``), the one ``<html lang>``, cookies, saved choices and the
browser's catalogs use. ``PSEUDO`` is a made-up language for tests (every word accented,
longer and wrapped in markers: a word that escaped translation shows at once); it is never
offered in a switcher.
"""

from __future__ import annotations

from collections.abc import Mapping

#: the languages offered, English (the source) first
LANGUAGES = ("en", "cs", "sk", "de", "nb")
#: the pseudo-language of the tests (``catalogs.pseudo``)
PSEUDO = "en-XA"
DEFAULT = "en"
#: each language in its own words, for a language switcher
NAMES = {
    "en": "English",
    "cs": "Čeština",
    "sk": "Slovenčina",
    "de": "Deutsch",
    "nb": "Norsk bokmål",
}
#: codes readers' software sends that mean one of ours: Norwegian in general and Nynorsk
#: readers read Bokmål well (there is no Nynorsk catalog)
ALIASES = {"no": "nb", "nn": "nb"}


def known(code: str | None) -> str | None:
    """``code`` as one of our languages (``PSEUDO`` too), or None: ``cs-CZ``, ``cs_CZ.UTF-8``
    and ``CS`` are ``cs``; ``no`` is ``nb``."""
    if not code:
        return None
    if code.lower() == PSEUDO.lower():
        return PSEUDO
    base = code.replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    base = ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The first of our languages in an ``Accept-Language`` header, by its weights (RFC 9110:
    ``cs-CZ,cs;q=0.9,en;q=0.8``); None when it names none of them."""
    if not header:
        return None
    weighted = []
    for i, part in enumerate(header[:1000].split(",")[:40]):
        code, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        lang = known(code.strip())
        if lang and weight > 0:
            weighted.append((-weight, i, lang))
    return min(weighted)[2] if weighted else None


def choose(saved: str | None, cookie: str | None, accept_language: str | None) -> str:
    """A reader's language: their saved choice, else the cookie, else ``Accept-Language``,
    else English."""
    return known(saved) or known(cookie) or from_accept_language(accept_language) or DEFAULT


def from_environment(env: Mapping[str, str]) -> str:
    """A terminal's language, as gettext finds it: the first of ``LANGUAGE`` (a list in order
    of preference, "nb:no:en"), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides;
    English when it names none of ours, or ``C``/``POSIX`` (no translation)."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for name in value.split(":"):
            if name in ("C", "POSIX") or name.startswith("C."):
                return DEFAULT
            lang = known(name)
            if lang and lang != PSEUDO:
                return lang
        return DEFAULT
    return DEFAULT
