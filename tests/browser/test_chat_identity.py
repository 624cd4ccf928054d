"""Chat at a table, readable bot names, one identity across browsers and the leaderboard's
rating, clicked through in Debian's Chromium against a real server (#11). Set
CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/chat.png and leaderboard.png."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from urllib.parse import urlparse

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

from playwright.sync_api import Page, expect  # noqa: E402

from browser.test_browser import person, screenshot, server  # noqa: E402, F401
from helpers import play_with_greedy  # noqa: E402
from server.conftest import Client  # noqa: E402


def new_table(page: Page, game: str, seats: list[str]) -> dict:
    answer = page.request.post("/api/tables", data={"game": game, "seats": seats})
    assert answer.ok, answer.text()
    return answer.json()


def join(page: Page, table_id: str) -> None:
    assert page.request.post(f"/api/tables/{table_id}/join", data={}).ok


def say(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def test_players_chat_spectators_read_and_bots_have_names(server, browser):  # noqa: F811
    ann, bob, cy = (person(browser, server, n) for n in ("Ann", "Bob", "Cy"))
    table = new_table(ann, "slide", ["me", "open", "greedy", "greedy"])
    join(bob, table["id"])
    for page in (ann, bob, cy):
        page.goto(f"/t/{table['id']}")
    # two bots of one kind are told apart by their seat, wherever names are shown
    expect(ann.locator(".side .seat .name")).to_have_text(
        ["Ann (you)", "Bob", "Greedy 3 (bot)", "Greedy 4 (bot)"]
    )
    text = "Hello <b>Bob</b> & <img src=x onerror=alert(1)>"
    say(ann, text)
    for page in (ann, bob, cy):
        line = page.get_by_test_id("chat-lines").locator("li").last
        expect(line).to_have_text(f"Ann: {text}")
        assert page.locator(".chat-text b, .chat-text img").count() == 0  # text, not HTML
    say(bob, "Hi Ann, good luck")
    expect(ann.get_by_test_id("chat-lines").locator("li").last).to_have_text(
        "Bob: Hi Ann, good luck"
    )
    # a spectator reads only, and is told why, until the creator lets spectators write
    expect(cy.get_by_test_id("chat-input")).to_be_hidden()
    expect(cy.get_by_test_id("chat-why")).to_contain_text("spectators")
    ann.get_by_test_id("chat-spectators").check()
    expect(cy.get_by_test_id("chat-input")).to_be_visible()
    say(cy, "Nice table")
    expect(ann.get_by_test_id("chat-lines").locator("li").last).to_have_text(
        "Cy (watching): Nice table"
    )
    # too fast: a typed error in the chat panel, the game's own message area stays clear
    for i in range(6):
        say(bob, f"spam {i}")
    expect(bob.get_by_test_id("chat-error")).to_contain_text("chatting fast")
    expect(bob.get_by_test_id("message")).to_have_count(0)
    # a half-written message survives the page's re-renders (someone comes to watch)
    box = ann.get_by_test_id("chat-input")
    box.click()
    box.press_sequentially("half")
    dan = person(browser, server, None)
    dan.goto(f"/t/{table['id']}")
    expect(ann.get_by_test_id("spectators")).to_have_text("2 people watching")
    box.press_sequentially(" done")
    box.press("Enter")
    expect(bob.get_by_test_id("chat-lines").locator("li").last).to_have_text("Ann: half done")
    # a reload replays the chat from the server
    bob.reload()
    expect(bob.get_by_test_id("chat-lines")).to_contain_text("Ann: Hello <b>Bob</b>")
    expect(bob.get_by_test_id("chat-lines")).to_contain_text("Cy (watching): Nice table")
    screenshot(ann, "chat.png")
    for page in (ann, bob, cy):
        assert not page.js_errors, page.js_errors


def test_the_game_offers_phrases_until_the_creator_frees_the_chat(server, browser):  # noqa: F811
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob", width=390)
    table = new_table(ann, "the-game", ["me", "open"])
    join(bob, table["id"])
    ann.goto(f"/t/{table['id']}")
    bob.goto(f"/t/{table['id']}")
    expect(bob.get_by_test_id("chat-input")).to_be_hidden()
    expect(bob.get_by_test_id("chat-why")).to_contain_text("Free chat is off")
    bob.locator('[data-phrase="Well played"]').click()
    expect(ann.get_by_test_id("chat-lines").locator("li").last).to_have_text("Bob: Well played")
    ann.get_by_test_id("chat-free").check()
    expect(bob.get_by_test_id("chat-input")).to_be_visible()
    say(bob, "Free now")
    expect(ann.get_by_test_id("chat-lines").locator("li").last).to_have_text("Bob: Free now")
    bob.get_by_test_id("chat").scroll_into_view_if_needed()
    screenshot(bob, "chat-phone.png")
    for page in (ann, bob):
        assert not page.js_errors, page.js_errors


def test_a_recovery_code_makes_another_browser_the_same_person(server, browser):  # noqa: F811
    ann = person(browser, server, "Ann")
    ann.goto("/")
    ann.get_by_test_id("other-device").click()
    ann.get_by_test_id("recovery-make").click()
    code = ann.get_by_test_id("recovery-code").inner_text().strip()
    assert len(code) == 23
    # another browser, by the link ...
    phone = person(browser, server, None, width=390)
    phone.goto(f"/#recover={code}")
    expect(phone.get_by_test_id("recover-loses")).to_have_text("This browser has no name yet.")
    phone.get_by_test_id("recover-confirm").click()  # asked first (#23)
    expect(phone.get_by_test_id("me-name")).to_have_text("Ann")
    assert "recover" not in phone.url  # the code leaves the address bar
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the top bar fits
    # ... or typed into the name dialog
    laptop = person(browser, server, None)
    laptop.goto("/leaderboard")
    laptop.locator(".topbar .who button").click()
    laptop.locator("dialog details.recover summary").click()
    laptop.get_by_test_id("recover-code").fill(code.lower())
    laptop.get_by_test_id("recover-use").click()
    expect(laptop.get_by_test_id("me-name")).to_have_text("Ann")

    # Ann plays a rated game from each browser: one row on the leaderboard
    def token(page: Page) -> str:
        return next(c["value"] for c in page.context.cookies() if c["name"] == "cardtable_token")

    async def play(table_id: str, player_token: str) -> None:
        client = Client.__new__(Client)  # a websocket client with that browser's token
        client.server = SimpleNamespace(port=urlparse(server).port)
        client.token = player_token
        sock = await client.connect(table_id)
        await play_with_greedy(sock, "slide")
        await sock.close()

    for page in (ann, phone):
        table = new_table(page, "slide", ["me", "greedy"])
        with ThreadPoolExecutor(1) as pool:  # (Playwright's own loop runs in this thread)
            pool.submit(asyncio.run, play(table["id"], token(page))).result()
    laptop.goto("/leaderboard")
    board = laptop.locator("[data-game=slide]")
    people_rows = board.locator("tbody tr").filter(has=laptop.locator('td[data-bot="false"]'))
    expect(people_rows).to_have_count(1)
    expect(people_rows.locator("td").nth(1)).to_have_text("Ann")
    expect(people_rows.locator("td").nth(3)).to_have_text("2")  # games
    score = int(people_rows.get_by_test_id("score").inner_text())
    assert 1000 < score < 2000
    detail = people_rows.locator("details.rating-detail")
    expect(detail.locator("span")).to_be_hidden()  # μ and σ behind a detail
    detail.locator("summary").click()
    expect(detail.locator("span")).to_contain_text("μ")
    expect(board.locator('td[data-bot="true"]')).to_have_text("Greedy bot")
    screenshot(laptop, "leaderboard.png")
    for page in (ann, phone, laptop):
        assert not page.js_errors, page.js_errors
