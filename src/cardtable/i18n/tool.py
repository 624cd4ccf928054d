"""The translators' tool: ``python -m cardtable.i18n extract|update|compile|check``.

- ``extract`` reads every marked source into the domains' templates (``<domain>.pot``):
  Python's ``_``/``_n`` (``core/words.py``), the pages' ``t``/``tn`` in JavaScript and in the
  server's templates.
- ``update`` brings every language's ``.po`` up to the templates (new entries empty, changed
  ones fuzzy, as gettext's msgmerge does), creating a missing one.
- ``compile`` writes each ``.mo`` beside its ``.po`` (the build runs it).
- ``check`` finds what a language still lacks: a missing, empty or fuzzy entry, or words whose
  placeholders differ from the source's; it exits 1 when anything is found.

A Python module's words belong to the domain its ``_, _n = translatable("…")`` line names
(one per module, at its top); the pages' words to ``web``. docs/translating.md is the
translators' guide.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import polib
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from cardtable.core.words import PLACEHOLDER
from cardtable.i18n.catalogs import LOCALE, all_po, domains, po_path, pot_path, read_catalog

SRC = LOCALE.parent
#: ``_, _n = translatable("slide")`` at a module's top: the domain of the module's words
DOMAIN_CALL = re.compile(r"""^_, _n = translatable\(["']([^"']+)["']\)""", re.MULTILINE)
PY_KEYWORDS = {"_": None, "_n": (1, 2)}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
#: a note for translators above a marked string: ``# TRANSLATORS: …``
COMMENT_TAGS = ("TRANSLATORS:",)


def sources() -> Iterator[tuple[str, str, Path]]:
    """Each marked source file: (domain, Babel's extraction method, path)."""
    for path in sorted(SRC.rglob("*.py")):
        found = DOMAIN_CALL.search(path.read_text(encoding="utf-8"))
        if found:
            yield found.group(1), "python", path
    for path in sorted((SRC / "server" / "static").rglob("*.js")):
        yield "web", "javascript", path
    for path in sorted((SRC / "server" / "web" / "templates").rglob("*.html")):
        yield "web", "jinja2.ext:babel_extract", path


def extract() -> dict[str, Catalog]:
    """Every domain's template, freshly read from the sources."""
    templates = {d: Catalog(project="cardtable", domain=d) for d in domains()}
    for domain, method, path in sources():
        keywords = PY_KEYWORDS if method == "python" else JS_KEYWORDS
        catalog = templates.setdefault(domain, Catalog(project="cardtable", domain=domain))
        where = str(path.relative_to(SRC.parent.parent))
        for line, message, comments, context in extract_from_file(
            method, path, keywords, COMMENT_TAGS, strip_comment_tags=True
        ):
            catalog.add(
                message,
                None,
                [(where, line)],
                auto_comments=comments,
                context=context,
                flags=("python-brace-format",) if PLACEHOLDER.search(_first(message)) else (),
            )
    return templates


def _first(message: str | tuple[str, ...]) -> str:
    return message if isinstance(message, str) else message[0]


def write_templates() -> None:
    """Each domain's template, rewritten only when its messages changed (its date alone
    would make every extraction a change)."""
    for domain, catalog in extract().items():
        path = pot_path(domain)
        if not path.parent.is_dir():  # a game from another package keeps its own
            continue
        if path.exists() and _entries(read_catalog(path)) == _entries(catalog):
            continue
        with path.open("wb") as f:
            write_po(f, catalog, width=100, omit_header=False, sort_output=False)


def _entries(catalog: Catalog) -> list[tuple[object, ...]]:
    # (sorted: a template read back lists an entry's places in another order)
    return sorted(
        (str(m.id), sorted(m.locations), sorted(m.auto_comments), sorted(m.flags))
        for m in catalog
        if m.id
    )


def update() -> None:
    for lang, domain, path in all_po():
        template = pot_path(domain)
        if not template.exists():
            continue
        catalog = read_catalog(path, lang) if path.exists() else Catalog(locale=lang, domain=domain)
        catalog.update(read_catalog(template), update_creation_date=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, catalog, width=100, ignore_obsolete=True)


def compile_all() -> None:
    for lang, _domain, path in all_po():
        if path.exists():
            with path.with_suffix(".mo").open("wb") as f:
                write_mo(f, read_catalog(path, lang))


def problems(lang: str, domain: str) -> list[str]:
    """What ``lang``'s catalog of ``domain`` lacks (see the module), one line each."""
    path, template = po_path(lang, domain), pot_path(domain)
    if not template.exists():
        return []
    if not path.exists():
        return [f"{path}: missing"]
    po = polib.pofile(str(path))
    source = {e.msgid for e in polib.pofile(str(template))}
    found = [f"{path}: not in the catalog: {m!r}" for m in sorted(source - {e.msgid for e in po})]
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{path}:{entry.linenum}: {entry.msgid!r}"
        if "fuzzy" in entry.flags:
            found.append(f"{where} is fuzzy")
        words = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if not all(words):
            found.append(f"{where} is not translated")
            continue
        wanted = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
        for w in words:
            # a plural form may drop {n} ("one card": Czech "jedna karta"), never add one
            have = set(PLACEHOLDER.findall(w))
            if have - wanted or (wanted - have) - {"n"}:
                found.append(f"{where}: placeholders {sorted(have)} in {w!r}")
    return found


def check() -> list[str]:
    return [line for lang, domain, _ in all_po() for line in problems(lang, domain)]


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        write_templates()
    elif command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = check()
        print("\n".join(found) or "every catalog is complete")
        return 1 if found else 0
    else:
        print("usage: python -m cardtable.i18n extract|update|compile|check", file=sys.stderr)
        return 2
    return 0
