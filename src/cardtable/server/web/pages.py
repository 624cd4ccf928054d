"""Pages the server renders itself: a game's rules (its ``docs/rules/<game>.md``, or the page
in the reader's language, ``docs/rules/<lang>/<game>.md``, rendered as HTML, with the page's
language as ``<html lang>``) and the "no such page" answer browsers get for an unknown address.

The Markdown is the project's own, but it is rendered with raw HTML off (markdown-it's
CommonMark with tables): whatever a rules page says, it cannot put a script or a tag on the
page; the page's Content-Security-Policy would refuse an inline one anyway.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from markdown_it import MarkdownIt

from cardtable import games
from cardtable.paths import rules_page

#: shared by every page the server renders: the stylesheet, the favicon and the top bar
_HEAD = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · cardtable</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<header class="topbar"><a class="brand" href="/">cardtable</a>
<nav aria-label="Main"><a href="/">Lobby</a><a href="/leaderboard">Leaderboard</a></nav></header>
<main>
"""
_FOOT = "</main>\n</body>\n</html>\n"


def _markdown() -> MarkdownIt:
    # "html": False: a tag in the Markdown is shown as text, never passed through
    return MarkdownIt("commonmark", {"html": False}).enable("table")


@lru_cache(maxsize=64)
def rules_html(game: str, lang: str = "en") -> str | None:
    """The rules page of ``game`` in ``lang`` as a whole HTML page, in English when there is
    no page in that language; None when there is no such game or it has no rules page (a game
    a package adds may have none)."""
    if game not in games.names():
        return None
    try:
        text, written_in = rules_page(game, lang)
    except OSError:
        return None
    title = games.get(game).title
    # a code block scrolls sideways on a phone: a Tab stop, so a keyboard scrolls it too
    # (raw HTML is off: every <pre> is the renderer's own)
    body = _markdown().render(text).replace("<pre>", '<pre tabindex="0">')
    return (
        _HEAD.format(title=escape(f"{title}: rules"), lang=written_in)
        + f'<article class="panel rules" data-testid="rules">\n{body}</article>\n'
        + '<p><a href="/">← Back to the lobby</a></p>\n'
        + _FOOT
    )


def not_found_html(path: str) -> str:
    """The "no such page" page (status 404), naming the address that was asked for."""
    return (
        _HEAD.format(title="No such page", lang="en")
        + '<section class="panel" data-testid="not-found"><h1>No such page</h1>\n'
        + f"<p>Nothing lives at <code>{escape(path[:200])}</code>.</p>\n"
        + '<p><a href="/">Go to the lobby</a> to start or join a table.</p></section>\n'
        + _FOOT
    )
