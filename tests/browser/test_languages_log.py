"""The game's words in each reader's language, in Debian's Chromium against a real server
(issue #26): two people at one Slide table, one reading Czech and one German, each read the
log and the results in their own; a finished game's replay opened in German reads in German;
Czech counts a real message in its three forms."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlparse

from playwright.sync_api import Page, expect

from browser.test_browser import settled
from browser.test_log import as_person, in_thread, log_lines, server, ws_server  # noqa: F401
from server.conftest import Client
from server.test_seats import play_greedy


def reading(page: Page, base: str, lang: str) -> Page:
    """``page``'s person reads ``lang`` (the ``lang`` cookie, as the header's switcher sets)."""
    host = urlparse(base).hostname
    page.context.add_cookies([{"name": "lang", "value": lang, "domain": host, "path": "/"}])
    return page


#: words each language's log and results must read, and English they must not
CZECH = {"log": r"^(Ann|Bob) (vybírá|odkrývá|bere) ", "figures": "zbylé karty"}
GERMAN = {"log": r"^(Ann|Bob) hat ", "figures": "übrige Karten"}
ENGLISH = re.compile(r"\b(chose|revealed|took|pushed|cards left|You came|You shared)\b")


def test_two_people_at_one_table_each_read_the_log_and_results_in_their_language(
    server,  # noqa: F811
    browser,
):
    srv = ws_server(server)
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")
    pages = {
        "cs": reading(as_person(browser, server, ann), server, "cs"),
        "de": reading(as_person(browser, server, bob), server, "de"),
    }
    for page in pages.values():
        page.goto(f"/t/{table['id']}")
        settled(page)

    async def play(moves: int | None) -> None:
        socks = [await c.connect(table["id"]) for c in (ann, bob)]
        for sock in socks:
            await sock.until(lambda s: True)
        await asyncio.gather(*(play_greedy(sock, moves) for sock in socks))
        for sock in socks:
            await sock.close()

    in_thread(play(1))  # each reveals: the log tells it, live, in each reader's words
    for lang, words in (("cs", CZECH), ("de", GERMAN)):
        page = pages[lang]
        expect(page.get_by_test_id("log").locator("li")).to_have_count(2)
        lines = log_lines(page)
        assert all(re.match(words["log"], line) for line in lines), (lang, lines)
        assert not any(ENGLISH.search(line) for line in lines), (lang, lines)
    assert log_lines(pages["cs"]) != log_lines(pages["de"])
    in_thread(play(None))  # to the end
    for lang, words in (("cs", CZECH), ("de", GERMAN)):
        page = pages[lang]
        expect(page.get_by_test_id("results")).to_be_visible()
        expect(page.get_by_test_id("figures")).to_contain_text(words["figures"])
        verdict = page.get_by_test_id("verdict").inner_text()
        assert not ENGLISH.search(verdict), verdict
        lines = log_lines(page)
        assert lines and not any(ENGLISH.search(line) for line in lines), lines
        assert not page.js_errors
    assert re.match(
        r"^(Skončili jste|O \d+\. místo)", pages["cs"].get_by_test_id("verdict").inner_text()
    )
    assert re.match(r"^Du (bist|teilst)", pages["de"].get_by_test_id("verdict").inner_text())

    # the finished game's replay, opened in German, reads in German
    viewer = reading(as_person(browser, server, Client(srv, "Viv")), server, "de")
    viewer.goto(f"/t/{table['id']}/replay")
    expect(viewer.get_by_test_id("log").locator("li").first).to_be_visible()
    lines = log_lines(viewer)
    assert lines and all(re.match(GERMAN["log"], line) or "Wertung" in line for line in lines)
    assert not any(ENGLISH.search(line) for line in lines), lines
    viewer.goto(f"/t/{table['id']}/replay#move=1")
    expect(viewer.get_by_test_id("what")).to_contain_text("hat ")
    assert not viewer.js_errors


def test_czech_counts_and_refusals_in_the_browser(server, browser):  # noqa: F811
    page = reading(as_person(browser, server, Client(ws_server(server), "Eva")), server, "cs")
    page.goto("/")
    said = page.evaluate(
        """async () => {
            const { say } = await import("/static/i18n.js");
            const msg = "The team did not win. Cards left: {n} (played {played}).";
            return [1, 2, 5].map((n) => say({ msg, plural: msg, n, domain: "the-game",
                args: { n, played: 98 - n } }));
        }"""
    )
    # a refusal from the API reads in the page's language too (common.js: api, ApiError)
    refused = page.evaluate(
        """async () => {
            const { api } = await import("/static/common.js");
            try { await api("GET", "/api/tables/nothing-here"); } catch (e) { return e.message; }
            return null;
        }"""
    )
    assert refused == "stůl 'nothing-here' neexistuje"
    assert "Zbyla 1 karta" in said[0]
    assert "Zbyly 2 karty" in said[1]
    assert "Zbylo 5 karet" in said[2]
