"""Every state of the table reads right (issue #24), in Debian's Chromium against a real
server: long names never widen a page, one's own cancelled Slide cards are dimmed, The Game
says when only ending the turn is left and marks the cards that fit nowhere, and the replay's
Play/Pause button always shows its glyph and its name.

Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/the-game-end-turn.png (a Slide table's
end, its dimmed cards too, is test_results.py's slide-end.png).
"""

from __future__ import annotations

import asyncio

import pytest
from playwright.sync_api import Page, expect

from browser.test_browser import click_action, person, screenshot, serving, settled, status
from browser.test_log import as_person, in_thread, ws_server
from server.conftest import Client
from server.test_chat import chat
from server.test_seats import play_greedy

# the longest names a person may choose (app.NAME: 24 characters), with no space to break at
LONG = ["Maximiliana" + "W" * 13, "Bartholomew" + "M" * 13, "Konstantinos" + "Q" * 12]
WIDTHS = (1280, 390)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("layout") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 8)
  .map((e) => `${e.tagName}.${e.className}: ${e.textContent.slice(0, 30)}`)"""


def no_sideways_scroll(page: Page, where: str) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    wide = page.evaluate(WIDE) if widths[0] > widths[1] else []
    assert widths[0] <= widths[1], f"{where}: {widths[0]} px wide at {widths[1]}: {wide}"


def at_every_width(page: Page, where: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)  # a new layout, not a new state
        no_sideways_scroll(page, f"{where} at {width} px")


@pytest.fixture(scope="module")
def finished_slide(server):
    """A Slide table of four seats, three people with the longest names and a bot, played to
    its end; each person said something long in the chat. Returns (table, clients)."""
    srv = ws_server(server)
    clients = [Client(srv, name) for name in LONG]
    table = clients[0].new_table("slide", ["me", "open", "open", "greedy"])
    for client in clients[1:]:
        client.post(f"/api/tables/{table['id']}/join")

    async def play() -> None:
        socks = [await c.connect(table["id"]) for c in clients]
        for i, sock in enumerate(socks):
            await sock.until(lambda s: True)
            said = await chat(sock, "Z" * 60 + f" {i}", f"long-{i}")
            assert said["type"] == "chat", said
        await asyncio.gather(*(play_greedy(sock) for sock in socks))
        for sock in socks:
            await sock.close()

    in_thread(play())
    return table, clients


# -- 1. long names: wrapped or shortened, never a page wider than the screen ----------------
def test_long_names_never_widen_a_running_slide_table(server, browser):
    srv = ws_server(server)
    names = [n[:-1] + "r" for n in LONG]  # other people, names as long
    clients = [Client(srv, name) for name in names]
    table = clients[0].new_table("slide", ["me", "open", "open", "greedy"])
    for client in clients[1:]:
        client.post(f"/api/tables/{table['id']}/join")
    page = as_person(browser, server, clients[0])
    page.goto(f"/t/{table['id']}")
    settled(page)
    expect(page.locator(".grid-box")).to_have_count(4)
    # a person resigns: the table news names her, and a bot plays her seat on
    clients[2].post(f"/api/tables/{table['id']}/resign")
    expect(page.locator("main")).to_contain_text("Table news")
    expect(page.locator(".notices")).to_contain_text(names[2])
    at_every_width(page, "a running Slide table")
    # a grid's box is as wide as its grid: a long name above it wraps instead of widening it
    page.set_viewport_size({"width": 1280, "height": 900})
    extra = page.locator(".grid-box").evaluate_all(
        "boxes => boxes.map(b => b.getBoundingClientRect().width"
        " - b.querySelector('.sgrid').getBoundingClientRect().width)"
    )
    assert all(x <= 30 for x in extra), extra  # its padding only
    assert not page.js_errors


def test_long_names_never_widen_a_finished_table_the_lobby_or_my_games(
    server, browser, finished_slide
):
    table, clients = finished_slide
    page = as_person(browser, server, clients[1])
    page.goto(f"/t/{table['id']}")
    expect(page.get_by_test_id("results")).to_be_visible()
    expect(page.get_by_test_id("log")).to_contain_text(LONG[0])
    expect(page.locator(".chat-lines")).to_contain_text("Z" * 60)
    at_every_width(page, "a finished Slide table")
    page.goto(f"/t/{table['id']}/replay")
    expect(page.get_by_test_id("step")).to_be_visible()
    at_every_width(page, "the replay")
    page.goto("/me")
    expect(page.locator("main")).to_contain_text(LONG[0])
    at_every_width(page, "My games")
    # the lobby, with an open table of long names waiting for a player
    waiting = clients[2].new_table("slide", ["me", "open"])
    clients[0].post(f"/api/tables/{waiting['id']}/join")
    clients[1].new_table("slide", ["me", "open", "open"])
    page.goto("/")
    expect(page.locator("main")).to_contain_text(LONG[1])
    at_every_width(page, "the lobby")
    assert not page.js_errors


# -- 2. Slide: one's own cancelled cards are dimmed as an opponent's are -------------------
ANIMATIONS_OVER = "() => document.getAnimations().every(a => a.playState !== 'running')"


def test_slide_own_removed_cards_are_dimmed(server, browser, finished_slide):
    table, clients = finished_slide
    own: list[float] = []
    for seat, client in enumerate(clients):
        page = as_person(browser, server, client)
        page.goto(f"/t/{table['id']}")
        expect(page.get_by_test_id("results")).to_be_visible()
        # the last move's short animation (opacity from .3 to 1) is over
        page.wait_for_function(ANIMATIONS_OVER)
        # every cancelled card, one's own (buttons of the big grid) and the others', is dimmed
        every = page.locator(".card.removed").evaluate_all(
            "cards => cards.map(c => Number(getComputedStyle(c).opacity))"
        )
        assert every and all(o < 0.5 for o in every), (seat, every)
        own += page.locator(f'.grid-box[data-seat="{seat}"] button.card.removed').evaluate_all(
            "cards => cards.map(c => Number(getComputedStyle(c).opacity))"
        )
        assert not page.js_errors
    assert own, "no person's own grid had a cancelled card"
    assert all(o < 0.5 for o in own), own


# -- 3. The Game: nothing more fits -> "End your turn", and the cards that fit nowhere marked
def hand_marks(page: Page) -> list[tuple[str, bool, float, str]]:
    """Each card of the hand: (value, fits, opacity, accessible label)."""
    return page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "cards => cards.map(c => [c.dataset.card, c.hasAttribute('data-actions'),"
        " Number(getComputedStyle(c).opacity), c.getAttribute('aria-label') || ''])"
    )


def widest_play(page: Page) -> tuple[str, str] | None:
    """The play with the widest jump: the way to run out of cards that fit soonest."""
    tops = {
        p: int(page.get_attribute(f'[data-pile="{p}"] .pile-btn', "data-top"))
        for p in ("up1", "up2", "down1", "down2")
    }
    best = None
    for node in page.locator("[data-card][data-actions]").all():
        for action in node.get_attribute("data-actions").split("|"):
            _, card, pile = action.split()
            jump = int(card) - tops[pile] if pile.startswith("up") else tops[pile] - int(card)
            if best is None or jump > best[0]:
                best = (jump, card, action)
    return best and (best[1], best[2])


def test_the_game_says_end_your_turn_and_marks_what_fits(server, browser):
    page = person(browser, server, "Tess")
    table = page.request.post(
        "/api/tables", data={"game": "the-game", "seats": ["me", "greedy"]}
    ).json()
    page.goto(f"/t/{table['id']}")
    page.wait_for_selector("[data-actions]")  # Tess's turn
    while (play := widest_play(page)) is not None:
        settled(page)
        for value, fits, opacity, label in hand_marks(page):
            if not fits:  # fits nowhere: dimmed, and its name says so
                assert opacity < 0.7 and "no pile takes it" in label, (value, opacity, label)
            else:
                assert opacity == 1, (value, opacity)
        card, action = play
        page.click(f'[data-card="{card}"]')
        click_action(page, action)
    assert status(page) == "running"
    expect(page.locator('[data-action="end"]')).to_be_enabled()
    expect(page.get_by_test_id("prompt")).to_contain_text("End your turn")
    expect(page.get_by_test_id("prompt")).not_to_contain_text("pick a card")
    marks = hand_marks(page)
    assert all(
        not fits and opacity < 0.7 and "no pile takes it" in label
        for _, fits, opacity, label in marks
    ), marks
    # marked by more than colour: each card that fits nowhere carries a visible cross
    crossed = page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "cards => cards.map(c => getComputedStyle(c, '::after').content)"
    )
    assert all(c not in ("none", "normal", "") for c in crossed), crossed
    page.wait_for_function(ANIMATIONS_OVER)
    screenshot(page, "the-game-end-turn.png")
    assert not page.js_errors


# -- 4. the replay: the Pause button has a glyph the fonts draw, and a name ----------------
DRAWN = """button => {
  // a character no font draws looks like U+10FFFD (a private-use character): draw both
  const pic = (s) => { const c = document.createElement('canvas'); c.width = 40; c.height = 40;
    const x = c.getContext('2d'); x.font = getComputedStyle(button).font;
    x.fillText(s, 4, 30); return Array.from(x.getImageData(0, 0, 40, 40).data).join(); };
  const none = pic('\\u{10FFFD}');
  return [...button.innerText].filter((ch) => ch.trim() && pic(ch) === none);
}"""


def test_replay_play_and_pause_show_a_glyph_and_a_name(server, browser):
    page = person(browser, server, "Rex")
    table = page.request.post(
        "/api/tables", data={"game": "the-game", "seats": ["greedy", "greedy"]}
    ).json()
    deadline = page.evaluate("Date.now()") + 60_000
    while page.request.get(f"/api/tables/{table['id']}").json()["status"] != "over":
        assert page.evaluate("Date.now()") < deadline, "the bots did not finish"
        page.wait_for_timeout(200)
    page.goto(f"/t/{table['id']}/replay?move=1")
    button = page.get_by_test_id("play")
    expect(button).to_have_accessible_name("Play")
    page.select_option("[data-testid=speed]", "1000")
    for state in ("Play", "Pause"):
        if state == "Pause":
            button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
            expect(button).to_have_accessible_name("Pause")
        glyph = button.locator(".glyph")
        expect(glyph).to_be_visible()
        box = glyph.bounding_box()
        assert box and box["width"] >= 8 and box["height"] >= 8, box
        assert button.evaluate(DRAWN) == [], f"{state}: characters no font draws"
    button.click()
    expect(button).to_have_accessible_name("Play")
    assert not page.js_errors
