"""Pages the server renders itself: a game's rules (its ``docs/rules/<game>.md``, or the page
in the reader's language, ``docs/rules/<lang>/<game>.md``, rendered as HTML, with the page's
language as ``<html lang>``) and the "no such page" answer browsers get for an unknown address.
Their top bar (with the language switcher, ``static/language.js``) and their own words are in
the reader's language, from the ``web`` catalog, as the other pages' are.

The Markdown is the project's own, but it is rendered with raw HTML off (markdown-it's
CommonMark with tables): whatever a rules page says, it cannot put a script or a tag on the
page; the page's Content-Security-Policy would refuse an inline one anyway.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from markdown_it import MarkdownIt

from cardtable import games
from cardtable.core.words import translatable
from cardtable.i18n.languages import LANGUAGES, NAMES
from cardtable.i18n.reader import reader
from cardtable.paths import rules_page

_, _n = translatable("web")

#: shared by every page the server renders: the stylesheet, the favicon and the top bar
_HEAD = """<!doctype html>
<html lang="{page_lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · cardtable</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<script type="module" src="/static/language.js"></script>
</head>
<body>
<header class="topbar" lang="{lang}"><a class="brand" href="/">cardtable</a>
<nav aria-label="{main}"><a href="/">{lobby}</a><a href="/leaderboard">{leaderboard}</a></nav>
<label class="lang-switch"><select data-language-switcher data-testid="language"
 aria-label="{language}" title="{language}">{languages}</select></label></header>
<main>
"""
_FOOT = "</main>\n</body>\n</html>\n"


def _head(title: str, lang: str, page_lang: str | None = None) -> str:
    """The page's head and top bar in ``lang``, titled ``title`` (already in words); the page
    is in ``page_lang`` (a rules page missing in ``lang`` is in English), else ``lang``."""
    say = reader(lang)
    languages = "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == lang else ""}>'
        f"{escape(NAMES[code])}</option>"
        for code in LANGUAGES
    )
    return _HEAD.format(
        lang=escape(lang),
        page_lang=escape(page_lang or lang),
        title=escape(title),
        main=escape(say(_("Main"))),
        lobby=escape(say(_("Lobby"))),
        leaderboard=escape(say(_("Leaderboard"))),
        language=escape(say(_("Language"))),
        languages=languages,
    )


def _markdown() -> MarkdownIt:
    # "html": False: a tag in the Markdown is shown as text, never passed through
    return MarkdownIt("commonmark", {"html": False}).enable("table")


@lru_cache(maxsize=64)
def rules_html(game: str, lang: str = "en") -> str | None:
    """The rules page of ``game`` in ``lang`` as a whole HTML page (its top bar in ``lang``),
    the text in English when there is no page in that language; None when there is no such
    game or it has no rules page (a game a package adds may have none)."""
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
    say = reader(lang)
    back = escape(say(_("← Back to the lobby")))
    learn = ""
    if games.tutorial(game) is not None:  # the lobby starts it (lobby.js, ?learn=GAME)
        words = escape(say(_("Learn with the tutorial")))
        learn = f'<p><a href="/?learn={game}" data-testid="learn-link">{words}</a></p>\n'
    return (
        _head(say(_("{game}: rules", game=title)), lang, written_in)
        + learn
        + f'<article class="panel rules" data-testid="rules">\n{body}</article>\n'
        + f'<p><a href="/">{back}</a></p>\n'
        + _FOOT
    )


def not_found_html(path: str, lang: str = "en") -> str:
    """The "no such page" page (status 404) in ``lang``, naming the address that was asked
    for."""
    say = reader(lang)
    title = say(_("No such page"))
    # one sentence each, the address and the link placed where the language puts them
    where = escape(say(_("Nothing lives at {address}.", address="\0"))).replace(
        "\0", f"<code>{escape(path[:200])}</code>"
    )
    lobby = escape(say(_("Go to the lobby")))
    go = escape(say(_("{lobby} to start or join a table.", lobby="\0"))).replace(
        "\0", f'<a href="/">{lobby}</a>'
    )
    return (
        _head(title, lang)
        + f'<section class="panel" data-testid="not-found"><h1>{escape(title)}</h1>\n'
        + f"<p>{where}</p>\n<p>{go}</p></section>\n"
        + _FOOT
    )
