"""Each game's table in Czech and in German, in Debian's Chromium (issue #26): a game played
a few moves against a bot reads in the reader's language everywhere a person looks (the
page's words from the ``web`` catalog, the log from the game's own), with no English sentence
left. Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/GAME-LANG.png."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect

from browser.test_a11y import SEATS, new_table, person, server, token  # noqa: F401
from browser.test_browser import screenshot, settled
from cardtable.bots import make_bot
from cardtable.i18n.catalogs import browser_catalog
from server.conftest import Socket

#: moves the person plays before the page is opened (so the log has lines of both seats)
MOVES = {"slide": 3, "the-game": 2, "doublets": 4}
#: English a translated table must not show (the game log's verbs, the page's headings)
ENGLISH = re.compile(
    r"\b(Game log|Your turn|chose|revealed|took|pushed|played|drew|Undo|Resign|Players)\b"
)


def play_some(page: Page, base: str, table_id: str, game: str, moves: int) -> None:
    """The page's person plays ``moves`` of their seat's moves with the greedy policy."""
    import websockets

    url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={token(page)}"

    async def run() -> None:
        bot = make_bot("greedy", game)
        async with websockets.connect(url) as ws:
            sock = Socket(ws)
            for _ in range(moves):
                state = await sock.until(
                    lambda s: bool(s["legal"]) and s["seat"] in s["view"]["to_act"], timeout=60
                )
                await sock.act(bot.choose(state["view"], state["legal"]))

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@pytest.mark.parametrize("lang", ["cs", "de"])
@pytest.mark.parametrize("game", list(SEATS))
def test_a_table_reads_in_the_readers_language(server, browser, game: str, lang: str) -> None:  # noqa: F811
    page = person(browser, server, lang)
    table_id = new_table(page, game, 1 if game == "doublets" else None)
    play_some(page, server, table_id, game, MOVES[game])
    page.goto(f"/t/{table_id}")
    settled(page)
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    assert page.evaluate("document.documentElement.lang") == lang
    words = browser_catalog(lang)["messages"]["web"]
    expect(page.get_by_role("heading", name=words["Game log"])).to_be_visible()
    log = page.get_by_test_id("log").inner_text()
    assert log.strip() and not ENGLISH.search(log), log
    board = page.locator("main").inner_text()
    assert not ENGLISH.search(board), ENGLISH.findall(board)
    assert not page.js_errors
    screenshot(page, f"{game}-{lang}.png")
