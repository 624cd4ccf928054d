"""Words for people that each reader puts into their own language: pure, for any screen.

A ``Text`` *is* its English words (a ``str``: every place that shows or compares English
still works) and also carries what a translator needs: the English source with ``{name}``
placeholders (the gettext message id), the catalog it belongs to (its *domain*: a game's
name for a game's words, ``cardtable`` for the platform's), its arguments, and for a count
the English plural and the number. ``wire`` turns it into JSON a client renders in its
reader's language (``cardtable.i18n`` in Python, ``static/i18n.js`` in the browser), as
Board Game Arena sends a notification: a template and its arguments, never finished words.

A module marks its words with the pair ``translatable`` gives, named ``_`` and ``_n`` so
that Babel's extractor finds them (``cardtable.i18n.catalogs``)::

    _, _n = translatable("slide")
    _("{who} revealed a {card} from {cell}", who=who, card=7, cell="b2")
    _n("{n} card left", "{n} cards left", n)

An argument is a plain value (a name, a number, a cell), or a ``Text`` of its own (a pile's
name), put into words first. Nothing here reads a catalog: the core stays free of I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

#: a placeholder: ``{name}`` (no format spec: the browser fills the same templates)
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")

Arg = Any  # str | int | float | Text


class Text(str):
    """English words that know their source, catalog and arguments (see the module)."""

    domain: str
    msgid: str
    args: Mapping[str, Arg]
    plural: str | None
    n: int | None
    #: ``wire``'s form, once built
    wired: dict[str, Any]

    def __new__(
        cls,
        domain: str,
        msgid: str,
        args: Mapping[str, Arg],
        plural: str | None = None,
        n: int | None = None,
    ) -> Text:
        english = plural if plural is not None and n != 1 else msgid
        self = super().__new__(cls, fill(english, args, str))
        self.domain, self.msgid, self.args = domain, msgid, dict(args)
        self.plural, self.n = plural, n
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickling (a process pool's bots, a copy) keeps what a translator needs
        return (Text, (self.domain, self.msgid, self.args, self.plural, self.n))


def fill(template: str, args: Mapping[str, Arg], say: Callable[[Arg], str]) -> str:
    """``template`` with each ``{name}`` replaced by ``say(args[name])``; a placeholder with
    no argument stays as it is (a translator's slip shows instead of failing)."""
    parts = _parsed.get(template)
    if parts is None:
        if len(_parsed) >= MAX_PARSED:  # (a stored record's words are templates too)
            _parsed.clear()
        parts = _parsed[template] = PLACEHOLDER.split(template)
    if len(parts) == 1:
        return template
    # the text between placeholders kept as it is (braces of its own too), each name's
    # slot filled: a list and a join cost half of ``str.format_map`` and its dict of names
    out = parts.copy()
    for k in range(1, len(parts), 2):
        name = parts[k]
        out[k] = say(args[name]) if name in args else "{" + name + "}"
    return "".join(out)


#: templates already split into text, name, text, ... (``fill`` runs for every word a
#: state sends: a regular expression per call was most of a move button's label).
#: Templates are the source's and the catalogs' strings, so the cache is bounded by them.
_parsed: dict[str, list[str]] = {}
MAX_PARSED = 4096


class Say(Protocol):
    def __call__(self, msgid: str, /, **args: Arg) -> Text: ...


class SayCount(Protocol):
    def __call__(self, msgid: str, plural: str, n: int, /, **args: Arg) -> Text: ...


def translatable(domain: str) -> tuple[Say, SayCount]:
    """The two markers of ``domain``'s words: ``_(msgid, **args)`` and
    ``_n(singular, plural, n, **args)`` (``n`` is also the argument ``{n}``)."""

    def say(msgid: str, /, **args: Arg) -> Text:
        return Text(domain, msgid, args)

    def say_count(msgid: str, plural: str, n: int, /, **args: Arg) -> Text:
        return Text(domain, msgid, {"n": n, **args}, plural, n)

    return say, say_count


def wire(value: Arg) -> Any:
    """``value`` as JSON a client puts into words: a ``Text`` as ``{"msg", "domain", "args"}``
    (with ``"plural"`` and ``"n"`` for a count), its arguments likewise; anything else as
    it is. A ``Text``'s is built once and shared (a label or a log line goes to every
    connection): read-only, as the ``Text`` is."""
    if not isinstance(value, Text):
        return value
    out: dict[str, Any] | None = value.__dict__.get("wired")
    if out is None:
        out = {"msg": value.msgid, "domain": value.domain}
        if value.args:
            out["args"] = {k: wire(v) for k, v in value.args.items()}
        if value.plural is not None:
            out["plural"], out["n"] = value.plural, value.n
        value.wired = out
    return out


def unwire(data: Any) -> Arg:
    """The ``Text`` (or plain value) that ``wire`` gave ``data`` for: a stored log or a
    record's words read back."""
    if not isinstance(data, dict) or "msg" not in data:
        return data
    args = {k: unwire(v) for k, v in (data.get("args") or {}).items()}
    return Text(data["domain"], data["msg"], args, data.get("plural"), data.get("n"))
