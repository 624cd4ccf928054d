"""The reader's language on the web: which it is for a request, the pages rendered in it, and
the catalog the browser puts the rest of the words into it with (``static/i18n.js``).

A request's language is the player's saved choice, else the ``lang`` cookie (the switcher
sets both), else ``Accept-Language``, else English (``cardtable.i18n.languages.choose``).
The pages are Jinja templates (``web/templates``) whose words go through the ``web``
catalog (``t``/``tn``, extracted like the JavaScript's), rendered once per page and language.
A catalog's address carries a digest of its content, so a browser keeps it for good and asks
again only when it changed.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

import orjson
from fastapi import Request
from jinja2 import Environment, FileSystemLoader, select_autoescape

from cardtable.core.words import fill
from cardtable.i18n.catalogs import browser_catalog
from cardtable.i18n.languages import LANGUAGES, NAMES, PSEUDO, choose, known
from cardtable.i18n.reader import reader
from cardtable.server.web import deps

#: the cookie of the switcher's choice (the player's saved choice wins over it)
COOKIE = "lang"
TEMPLATES = Path(__file__).parent / "templates"


def request_language(request: Request) -> str:
    """The language ``request``'s reader reads (see the module)."""
    player = deps.viewer(request)
    return choose(
        player.language if player is not None else None,
        request.cookies.get(COOKIE),
        request.headers.get("accept-language"),
    )


@functools.cache
def catalog_body(lang: str) -> bytes:
    """The browser's catalog of ``lang`` as JSON (built once per process: catalogs do not
    change while it serves)."""
    return orjson.dumps(browser_catalog(lang))


def catalog_digest(lang: str) -> str:
    return hashlib.sha256(catalog_body(lang)).hexdigest()[:16]


def catalog_url(lang: str) -> str:
    return f"/i18n/{lang}.json?v={catalog_digest(lang)}"


@functools.cache
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


@functools.cache
def render_page(template: str, lang: str) -> str:
    """The page ``template`` in ``lang``: its words through the ``web`` catalog, ``<html
    lang>``, the catalog's address and the languages a switcher offers."""
    say = reader(lang)

    def t(msgid: str, **args: Any) -> str:
        return fill(say.gettext("web", msgid), args, say)

    def tn(singular: str, plural: str, n: int, **args: Any) -> str:
        return fill(say.ngettext("web", singular, plural, n), {"n": n, **args}, say)

    return (
        _environment()
        .get_template(template)
        .render(
            t=t,
            tn=tn,
            lang=lang,
            catalog_url=catalog_url(lang),
            languages=[(code, NAMES[code]) for code in LANGUAGES],
        )
    )


def catalog_language(code: str) -> str | None:
    """``code`` from a catalog's address, if it is one of ours (the pseudo-language too)."""
    lang = known(code)
    return lang if lang is not None and code in (*LANGUAGES, PSEUDO) else None
