"""The reader's language on the web (#26): the player's saved choice, else the ``lang``
cookie, else ``Accept-Language``, else English, on every page's ``<html lang>``; the switcher's
``POST /api/me/language``; each language's catalog for the browser, kept for good at its
address."""

from __future__ import annotations

import re

import httpx

PAGES = ["/", "/leaderboard", "/me", "/t/abc/replay", "/t/abc", "/rules/slide"]


def html_lang(text: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', text)
    assert found, text[:200]
    return found.group(1)


def test_every_page_is_in_the_language_the_browser_asks_for(server):
    for path in PAGES:
        assert html_lang(httpx.get(server.base + path).text) == "en"
        czech = httpx.get(server.base + path, headers={"accept-language": "cs-CZ,cs;q=0.9"})
        assert html_lang(czech.text) == "cs"
        assert "accept-language" in czech.headers["vary"]
    other = httpx.get(server.base + "/", headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert html_lang(other.text) == "en"


def test_the_switchers_choice_is_kept_and_wins(server):
    with httpx.Client(base_url=server.base, headers={"x-cardtable": "1"}) as browser:
        chosen = browser.post("/api/me/language", json={"language": "de"})
        assert chosen.json() == {"language": "de", "saved": False}
        page = browser.get("/", headers={"accept-language": "cs"})
        assert html_lang(page.text) == "de"  # the cookie wins over the header
        assert browser.get("/api/languages").json()["language"] == "de"
        # a player's saved choice follows them to another browser (their token)
        browser.post("/api/me", json={"name": "Ann"})
        saved = browser.post("/api/me/language", json={"language": "sk"})
        assert saved.json() == {"language": "sk", "saved": True}
        token = browser.cookies["cardtable_token"]
    with httpx.Client(base_url=server.base) as elsewhere:
        elsewhere.cookies.set("cardtable_token", token)
        elsewhere.cookies.set("lang", "cs")
        assert html_lang(elsewhere.get("/", headers={"accept-language": "de"}).text) == "sk"


def test_a_language_not_offered_is_refused_with_the_list(server):
    answer = httpx.post(
        server.base + "/api/me/language", json={"language": "fr"}, headers={"x-cardtable": "1"}
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_language" and "cs" in answer.json()["message"]
    too_long = httpx.post(
        server.base + "/api/me/language", json={"language": "x" * 100}, headers={"x-cardtable": "1"}
    )
    assert too_long.status_code in (400, 422)


def test_a_catalog_is_kept_for_good_at_its_address(server):
    page = httpx.get(server.base + "/", headers={"accept-language": "cs"}).text
    url = re.search(r'<meta name="cardtable-catalog" content="([^"]+)">', page).group(1)
    assert url.startswith("/i18n/cs.json?v=")
    fresh = httpx.get(server.base + url)
    assert fresh.status_code == 200
    assert "immutable" in fresh.headers["cache-control"]
    catalog = fresh.json()
    assert catalog["lang"] == "cs" and {"web", "cardtable"} <= set(catalog["messages"])
    assert catalog["plural"]["few"] == 1
    stale = httpx.get(server.base + "/i18n/cs.json?v=old")
    assert stale.headers["cache-control"] == "no-cache"
    assert httpx.get(server.base + "/i18n/fr.json").status_code == 404
    assert httpx.get(server.base + "/i18n/..%2Fsecret.json").status_code == 404
