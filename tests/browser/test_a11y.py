"""Everyone able to play (WCAG 2.2 AA), checked in Debian's Chromium against a real server.

axe-core (from the npm registry: ``npm ci``) runs on every page and on each game's table
mid-game and at its end, in each language of ``LANGS`` (the ``lang`` cookie): no violation
of the WCAG 2.0, 2.1 and 2.2 A and AA rules. Set ``CARDTABLE_TEST_NEED_JS=1`` (CI does) to
fail rather than skip where axe-core is missing. docs/accessibility.md says what the pages
promise and how each game is played with the keyboard.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
if not AXE.exists():
    if os.environ.get("CARDTABLE_TEST_NEED_JS"):
        raise RuntimeError("CARDTABLE_TEST_NEED_JS is set but axe-core is missing: run npm ci")
    pytest.skip("the accessibility checks need axe-core: run npm ci", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from browser.test_browser import (  # noqa: E402
    TIMEOUT,
    finished_bots_table,
    serving,
    settled,
    winning_deal,
)  # noqa: E402
from helpers import play_with_greedy  # noqa: E402
from server.conftest import Socket  # noqa: E402

#: the languages every page is checked in (the ``lang`` cookie chooses one)
LANGS = ["en"]
#: axe's rules for WCAG 2.0, 2.1 and 2.2, levels A and AA
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
#: the seats of each game's table: the page's person and bots (a deal Doublets wins)
SEATS = {"slide": ["me", "greedy"], "the-game": ["me", "greedy"], "doublets": ["me"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def person(browser, base: str, lang: str, name: str = "Ada", width: int = 1280, **kw) -> Page:
    """A named person's page in its own context, in ``lang`` (its cookie). The page's
    Content-Security-Policy is bypassed only so that axe's script can be injected."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, base_url=base, bypass_csp=True, **kw
    )
    host = base.split("//")[1].split(":")[0]
    context.add_cookies([{"name": "lang", "value": lang, "domain": host, "path": "/"}])
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    assert page.request.post("/api/me", data={"name": name}).ok
    return page


def new_table(page: Page, game: str, seed: int | None = None) -> str:
    body = {"game": game, "seats": SEATS[game], "seed": seed}
    answer = page.request.post("/api/tables", data=body)
    assert answer.ok, answer.text()
    return answer.json()["id"]


def token(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "cardtable_token")


def play_to_end(page: Page, base: str, table_id: str, game: str) -> None:
    """Play the page's person's seat to the end with the greedy policy, through a websocket
    of its own (the person's token); the page is opened afterwards."""
    import websockets

    url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={token(page)}"

    async def run() -> None:
        async with websockets.connect(url) as ws:
            state = await play_with_greedy(Socket(ws), game, timeout=120)
            assert state["table"]["status"] == "over", state["table"]

    # (Playwright's synchronous API runs an event loop in this thread)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


# -- the pages: each opens one in ``page`` and waits until it is drawn ------------------------
def lobby(page: Page, base: str) -> None:
    page.goto("/")
    expect(page.locator("#create-form [name=game] option").first).to_be_attached()
    expect(page.get_by_test_id("me-name")).to_be_visible()


def my_games(page: Page, base: str) -> None:
    finished = new_table(page, "doublets", 4242)
    assert page.request.post(f"/api/tables/{finished}/resign", data={}).ok
    new_table(page, "slide")
    page.goto("/me")
    expect(page.get_by_test_id("finished-game")).to_have_count(1)
    expect(page.get_by_test_id("bot-accounts")).to_be_visible()


def leaderboard(page: Page, base: str) -> None:
    finished_bots_table(page)
    page.goto("/leaderboard")
    expect(page.locator("[data-game=slide] tbody tr").first).to_be_visible()


def rules(page: Page, base: str) -> None:
    page.goto("/rules/slide")
    expect(page.get_by_test_id("rules")).to_be_visible()


def replay(page: Page, base: str) -> None:
    table_id = finished_bots_table(page)
    page.goto(f"/t/{table_id}/replay#move=5")
    expect(page.get_by_test_id("step")).to_contain_text("5")


def table(game: str, end: bool) -> Callable[[Page, str], None]:
    def open_table(page: Page, base: str) -> None:
        seed = winning_deal()[0] if game == "doublets" and end else None
        table_id = new_table(page, game, seed)
        if end:
            play_to_end(page, base, table_id, game)
        page.goto(f"/t/{table_id}")
        settled(page)
        if end:
            expect(page.get_by_test_id("results")).to_be_visible()
        else:
            expect(page.get_by_test_id("status")).to_have_text("Your turn")

    return open_table


PAGES: dict[str, Callable[[Page, str], None]] = {
    "lobby": lobby,
    "my-games": my_games,
    "leaderboard": leaderboard,
    "rules": rules,
    "replay": replay,
    **{
        f"{game}-{when}": table(game, when == "end")
        for game in SEATS
        for when in ("mid-game", "end")
    },
}


def axe(page: Page) -> list[str]:
    """axe's violations of the WCAG A and AA rules on the page as it is now: a line for each
    element."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))"
        ".violations.flatMap((v) => v.nodes.map((n) => "
        "`${v.id}: ${n.target.join(' ')}: ${n.html.slice(0, 160)}: ${n.failureSummary}`))",
        TAGS,
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(PAGES))
def test_no_axe_violation(server, browser, name: str, lang: str) -> None:
    page = person(browser, server, lang)
    PAGES[name](page, server)
    found = axe(page)
    assert not found, "\n".join(found)
    assert not page.js_errors
    page.context.close()
