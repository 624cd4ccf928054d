"""The gettext catalogs: where they live, how a language's is loaded, and the browser's JSON.

Each *domain* is one catalog per language: ``cardtable`` (the platform's words in Python:
the core, the server, the bots), ``tui`` (the terminal game), ``web`` (the pages: their
JavaScript and templates), and one per game, named as the game, holding its own words
(``core/words.py``) in the folder its ``Game.catalogs`` package names, so a game another
package adds ships its own catalog. In a ``locale/`` folder::

    <domain>.pot                       the template: every English source, extracted
    <lang>/LC_MESSAGES/<domain>.po     a language's translations (in the repository)
    <lang>/LC_MESSAGES/<domain>.mo     compiled by the build (``hatch_build.py``)

A ``.po`` newer than its ``.mo`` (a source checkout, a translator at work) is compiled in
memory instead, so a catalog read is never stale. ``tool.py`` extracts, updates, compiles and
checks them.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cardtable import games
from cardtable.i18n.languages import LANGUAGES, PSEUDO

#: cardtable's own catalogs
LOCALE = Path(__file__).resolve().parents[1] / "locale"
#: the platform's domains; each game's name is a domain too
PLATFORM_DOMAINS = ("cardtable", "tui", "web")
#: the domains the browser needs: its own, the platform's words the server sends, the games'
BROWSER_DOMAINS = ("web", "cardtable")


def game_domains() -> list[str]:
    return list(games.names())


def domains() -> list[str]:
    return [*PLATFORM_DOMAINS, *game_domains()]


def folder(domain: str) -> Path:
    """The ``locale/`` folder holding ``domain``'s catalogs."""
    if domain in games.names():
        package = games.get(domain).catalogs
        if package is not None:
            return Path(str(resources.files(package))) / "locale"
    return LOCALE


def po_path(lang: str, domain: str) -> Path:
    return folder(domain) / lang / "LC_MESSAGES" / f"{domain}.po"


def pot_path(domain: str) -> Path:
    return folder(domain) / f"{domain}.pot"


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


@functools.cache
def translations(lang: str, domain: str) -> gettext.NullTranslations:
    """``domain``'s translations into ``lang`` (English, or no catalog: the source words)."""
    if lang == PSEUDO:
        return _compiled(pseudo(read_catalog(pot_path(domain))))
    po = po_path(lang, domain)
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if lang == "en" or not po.exists():
        return gettext.NullTranslations()
    return _compiled(read_catalog(po, lang))


def _compiled(catalog: Catalog) -> gettext.GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries left out, as msgfmt does
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def plural_categories(lang: str) -> dict[str, int]:
    """Which gettext plural form each CLDR category is in ``lang`` (the browser picks a form
    by ``Intl.PluralRules``, Python by the catalog's ``Plural-Forms``: one mapping for both).
    Found by asking both for the counts 0..199; a category no whole number has (Czech's
    "many", for fractions) takes the last form."""
    locale = Locale.parse("en" if lang == PSEUDO else lang)
    nplurals, expr = _plural_forms(locale)
    choose = gettext.c2py(expr)
    found = {str(locale.plural_form(n)): int(choose(n)) for n in range(200)}
    for category in ("zero", "one", "two", "few", "many", "other"):
        found.setdefault(category, nplurals - 1)
    return found


def _plural_forms(locale: Locale) -> tuple[int, str]:
    catalog = Catalog(locale=locale)
    return catalog.num_plurals, catalog.plural_expr


def messages(catalog: Catalog) -> dict[str, str | list[str]]:
    """The translated, not fuzzy, entries of ``catalog``: a message id to its words (a list of
    forms for a count, keyed by the singular)."""
    out: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        words = message.string
        if isinstance(message.id, tuple | list):
            forms = [words] if isinstance(words, str) else list(words or ())
            if forms and all(forms):
                out[message.id[0]] = forms
        elif isinstance(words, str) and words:
            out[message.id] = words
    return out


def browser_catalog(lang: str) -> dict[str, Any]:
    """What the browser needs to put words into ``lang``: per domain, the translated messages,
    and which form each plural category takes (``static/i18n.js``)."""
    data: dict[str, Any] = {}
    for domain in (*BROWSER_DOMAINS, *game_domains()):
        if lang == PSEUDO:
            template = pot_path(domain)
            catalog = pseudo(read_catalog(template)) if template.exists() else Catalog()
        else:
            po = po_path(lang, domain)
            catalog = read_catalog(po, lang) if po.exists() and lang != "en" else Catalog()
        data[domain] = messages(catalog)
    return {"lang": lang, "plural": plural_categories(lang), "messages": data}


# -- the pseudo-language: every word that went through a catalog shows it --------------------
_ACCENTED = str.maketrans(
    "aceinorsuyzACEINORSUYZ",
    "àçéîñöŕšûýžÀÇÉÎÑÖŔŠÛÝŽ",
)
_SPLIT = re.compile(r"(\{[a-z_][a-z0-9_]*\})")
#: how much longer the pseudo-language's words are: German runs about a third longer
GROWTH = 0.4


def pseudo_words(source: str) -> str:
    """``source`` accented outside its placeholders, 40 % longer, between ⟦ and ⟧."""
    parts = [p if _SPLIT.fullmatch(p) else p.translate(_ACCENTED) for p in _SPLIT.split(source)]
    text = "".join(parts)
    letters = sum(len(p) for p in parts if not _SPLIT.fullmatch(p))
    return f"⟦{text}{'~' * round(letters * GROWTH)}⟧"


def pseudo(template: Catalog) -> Catalog:
    """A catalog of ``template``'s every message in the pseudo-language."""
    out = Catalog(locale="en")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            words: Any = [pseudo_words(message.id[0]), pseudo_words(message.id[1])]
        else:
            words = pseudo_words(message.id)
        out.add(message.id, words)
    return out


def all_po() -> Iterator[tuple[str, str, Path]]:
    """Every (language, domain, ``.po`` path) that should exist."""
    for lang in LANGUAGES[1:]:
        for domain in domains():
            yield lang, domain, po_path(lang, domain)
