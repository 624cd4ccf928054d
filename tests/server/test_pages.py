"""The pages the server renders itself and its answers to a browser's wrong turns (#11): each
game's rules as HTML at /rules/GAME (raw HTML in the Markdown stays text), written for players
as the options the lobby shows are (#24), in the language asked for (#26), an HTML 404 for a
browser at an unknown address while the API keeps its JSON errors, and the favicon."""

from __future__ import annotations

import re
from html import unescape

import httpx

from cardtable import games
from cardtable.i18n.languages import LANGUAGES
from cardtable.server.web.pages import _markdown

HTML = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_every_game_has_its_rules_page(server):
    for name in games.names():
        answer = httpx.get(f"{server.base}/rules/{name}", headers=HTML)
        assert answer.status_code == 200, name
        assert answer.headers["content-type"].startswith("text/html")
        assert f"<title>{games.get(name).title}: rules · cardtable</title>" in answer.text
        assert '<article class="panel rules"' in answer.text
        assert "<table>" in answer.text  # the action notation table is rendered as a table
    # the strict policy holds: no inline script or style on the page
    assert "content-security-policy" in answer.headers
    # the one script is the language switcher's, from /static: nothing the Markdown wrote
    scripts = re.findall(r"<script[^>]*>", answer.text)
    assert scripts == ['<script type="module" src="/static/language.js">'], scripts
    assert "style=" not in answer.text


#: words of the developers, not of players: seats counted from 0, file names, the engine's
#: terms, option names instead of the lobby's labels (the developer's part is docs/games.md)
DEVELOPER_WORDS = [
    r"\bseats? 0\b",
    r"\b[01]-based\b",
    r"\bN ?- ?1\b",
    r"\bmod N\b",
    r"\.md\b",
    r"\.js\b",
    r"\.py\b",
    r"\bdocs/",
    r"\bstatic/",
    r"RULES\.md",
    r"\bseeds?\b",
    r"\bsource page",
    r"\bengine\b",
    r"\bserver\b",
    r"\bview\b",
    r"\bto_act\b",
    r"result\(\)",
    r"\bnull\b",
    r"\bJSON\b",
    r"\bAPI\b",
    r"/api/",
    r"\bmin_after_empty\b",
    r"`start`|<code>start</code>",
    r"<code>target</code>",
    r"<code>pro</code>",
    r"\btoo_long\b",
    r"\boffers_undo\b",
    r"free_chat_default",
    r"\bbot workers\b",
]


def developer_words(text: str) -> list[str]:
    return [w for w in DEVELOPER_WORDS if re.search(w, text, re.IGNORECASE)]


def test_rules_pages_and_options_are_written_for_players(server):
    for name in games.names():
        for lang in LANGUAGES:  # every language's page, as written for its players
            page = httpx.get(f"{server.base}/rules/{name}?lang={lang}", headers=HTML).text
            assert f'<html lang="{lang}">' in page, (name, lang)
            article = page[page.index("<article") : page.index("</article>")]
            # the code spans too (an option's name is a developer's word), then the words alone
            assert not developer_words(article), (name, lang, developer_words(article))
            assert not developer_words(unescape(re.sub(r"<[^>]+>", " ", article))), (name, lang)
            # and no link from a player's page into the developers' documents
            links = re.findall(r'href="([^"]*)"', article)
            assert not [x for x in links if ".md" in x or "docs" in x or "github" in x], links
    for offered in httpx.get(f"{server.base}/api/games").json():
        for option in offered["options"]:
            said = f"{option['label']}: {option['doc']}"
            assert not developer_words(said), (offered["name"], said, developer_words(said))


def test_rules_pages_in_the_asked_language_and_english_otherwise(server):
    czech = httpx.get(f"{server.base}/rules/slide?lang=cs", headers=HTML)
    assert czech.status_code == 200
    assert '<html lang="cs">' in czech.text
    assert "<h2>Příprava</h2>" in czech.text and "mřížk" in czech.text
    assert "<code>take 7 left</code>" in czech.text  # the moves as players type them
    german = httpx.get(f"{server.base}/rules/the-game?lang=de", headers=HTML).text
    assert '<html lang="de">' in german and "Rückwärts-Trick" in german
    # an unknown or missing language, or a try at a path: the English page
    for asked in ["?lang=fr", "?lang=", "", "?lang=../..", "?lang=CS"]:
        page = httpx.get(f"{server.base}/rules/slide{asked}", headers=HTML)
        assert page.status_code == 200, asked
        assert '<html lang="en">' in page.text, asked
        assert "<h2>Setup</h2>" in page.text, asked
    # a page the server renders itself in English says so too
    missing = httpx.get(f"{server.base}/no/such/page", headers=HTML).text
    assert '<html lang="en">' in missing


def test_no_rules_page_for_an_unknown_game(server):
    for name in ["chess", "../etc", "Slide", "x" * 300]:
        answer = httpx.get(f"{server.base}/rules/{name}", headers=HTML)
        assert answer.status_code == 404
        assert "No such page" in answer.text


def test_the_markdown_renderer_passes_no_html_through():
    html = _markdown().render("<script>alert(1)</script>\n\n<b>x</b> [a](javascript:alert(1))")
    assert "<script" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript' not in html


def test_an_unknown_address_is_an_html_page_for_a_browser_and_json_for_the_api(server):
    page = httpx.get(f"{server.base}/no/such/page", headers=HTML)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "No such page" in page.text and 'href="/"' in page.text
    assert "/no/such/page" in page.text
    # escaped: the address is the visitor's text
    page = httpx.get(f"{server.base}/%3Cb%3Ehi", headers=HTML)
    assert "<b>hi" not in page.text and "&lt;b&gt;hi" in page.text
    # a client that does not ask for HTML, and the API whatever it asks: JSON as before
    plain = httpx.get(f"{server.base}/no/such/page")
    assert plain.status_code == 404 and plain.json()["error"] == "not_found"
    api = httpx.get(f"{server.base}/api/nothing", headers=HTML)
    assert api.status_code == 404 and api.json()["error"] == "not_found"
    table = httpx.get(f"{server.base}/api/tables/nope", headers=HTML)
    assert table.status_code == 404 and table.json()["error"] == "not_found"


def test_the_favicon_is_served_and_linked(server):
    for path in ["/favicon.ico", "/favicon.svg"]:
        icon = httpx.get(server.base + path)
        assert icon.status_code == 200
        assert icon.headers["content-type"].startswith("image/svg+xml")
        assert icon.text.startswith("<svg")
    for path in ["/", "/leaderboard", "/t/x", "/t/x/replay", "/rules/doublets"]:
        assert 'rel="icon" href="/favicon.svg"' in httpx.get(server.base + path).text, path


def test_option_messages_count_seats_from_1_and_options_have_labels(people):
    ann = people("Ann")
    answer = ann.http.post(
        "/api/tables",
        json={"game": "slide", "seats": ["me", "greedy", "greedy"], "options": {"start": 5}},
    )
    assert answer.status_code == 400
    message = answer.json()["message"]
    assert "no seat 6 among 3 players" in message and "seats 1 to 3" in message
    assert "at most 5" not in message  # the old bound, counted from 0
    # the protocol's value stays 0-based: start 2 is the third seat, "Seat 3"
    table = ann.new_table("slide", ["me", "greedy", "greedy"], start=2)
    assert table["options"]["start"] == 2
    offered = {g["name"]: g for g in ann.http.get("/api/games").json()}
    start = next(o for o in offered["the-game"]["options"] if o["name"] == "start")
    assert start["label"] == "First player" and start["seat"] is True
    rule = next(o for o in offered["the-game"]["options"] if o["name"] == "min_after_empty")
    assert "_" not in rule["label"] and rule["choices"] == [1, 2]
