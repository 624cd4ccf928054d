"""The game log, the last move, the end in words and the replay, in Debian's Chromium against
a real server (issue #11). Moves are clicks, as in test_browser.py; games that only need to
be over are played by real websocket clients (tests/server/conftest.py), then looked at in
the browser with the same person's cookie.

Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/log-*.png and replay.png.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

# Chromium, the server and the page helpers: as every browser test (and the skip without it)
from browser.test_browser import (
    click_action,
    person,
    screenshot,
    serving,
    settled,
)
from browser.test_browser import winning_deal as doublets_deal
from server.conftest import Client, Server
from server.test_seats import play_greedy


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def in_thread(coroutine) -> None:
    """Run the websocket clients' coroutine beside Playwright's own event loop."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


def log_lines(page: Page) -> list[str]:
    return [
        re.sub(r"^\d+\.\s*", "", t) for t in page.locator("[data-testid=log] li").all_inner_texts()
    ]


def as_person(browser, base: str, client: Client, width: int = 1280) -> Page:
    """A page with ``client``'s cookie: the same person as the websocket client."""
    page = person(browser, base, None, width)
    host = urlparse(base).hostname
    page.context.add_cookies(
        [{"name": "cardtable_token", "value": client.token, "domain": host, "path": "/"}]
    )
    return page


def ws_server(base: str) -> Server:
    """The module's running server, as tests/server's clients know one."""
    srv = Server.__new__(Server)
    srv.base = base
    srv.port = int(urlparse(base).port or 80)
    return srv


# -- 1. Slide: the log of two people, a reveal secret until both chose, whose turn it is ----
def test_slide_log_keeps_a_reveal_secret_and_a_seat_that_chose_is_not_to_play(server, browser):
    ann = person(browser, server, "Ann")
    table = ann.request.post("/api/tables", data={"game": "slide", "seats": ["me", "open"]}).json()
    bob = person(browser, server, "Bob")
    assert bob.request.post(f"/api/tables/{table['id']}/join", data={}).ok
    for page in (ann, bob):
        page.goto(f"/t/{table['id']}")
        settled(page)
        expect(page.get_by_test_id("log")).to_have_text("No move yet.")
        expect(page.get_by_test_id("status")).to_have_text("Your turn")
        assert page.title().startswith("▶ ")
        # an untimed table's header has no clock (and no "null" where it would be)
        expect(page.locator("#head")).not_to_contain_text("null")
    cell = ann.locator('[data-action^="reveal "]').first.get_attribute("data-action").split()[1]
    click_action(ann, f"reveal {cell}")
    expect(ann.get_by_test_id("log").locator("li")).to_have_count(1)
    assert log_lines(ann) == [f"Ann chose {cell} to reveal"]
    expect(bob.get_by_test_id("log").locator("li")).to_have_count(1)
    assert log_lines(bob) == ["Ann chose a card to reveal"]
    # Ann has chosen (she may still change her mind): waiting, and no ▶ in her tab
    expect(ann.get_by_test_id("status")).to_have_text("Waiting for Bob")
    assert not ann.title().startswith("▶")
    expect(ann.get_by_test_id("prompt")).to_contain_text("Waiting for the others")
    expect(bob.get_by_test_id("status")).to_have_text("Your turn")
    assert bob.title().startswith("▶ ")
    # her own choice is marked on her board; Bob's board shows her grid as the last mover
    expect(ann.locator(f'.grid-box[data-seat="0"] [data-cell="{cell}"].last-move')).to_have_count(1)
    expect(bob.locator('.grid-box[data-seat="0"].last-move')).to_have_count(1)
    other = bob.locator('[data-action^="reveal "]').first.get_attribute("data-action").split()[1]
    click_action(bob, f"reveal {other}")
    # both have chosen: everyone reads which card each one revealed, and from where
    both = [rf"Ann revealed an? \d+ from {cell}", rf"Bob revealed an? \d+ from {other}"]
    for page in (ann, bob):
        expect(page.get_by_test_id("log").locator("li").nth(1)).to_contain_text("revealed")
        lines = log_lines(page)
        assert len(lines) == 2 and all(re.fullmatch(w, t) for w, t in zip(both, lines, strict=True))
    # a few takes, each a line in words; the newest is the current one, at the bottom
    for _ in range(4):
        for page in (ann, bob):
            settled(page)
        mover = next(
            (p for p in (ann, bob) if p.locator("[data-centre][data-actions]").count()), None
        )
        if mover is None:
            break
        before = len(log_lines(mover))
        centre = mover.locator("[data-centre][data-actions]").first
        value = centre.get_attribute("data-centre")
        centre.click()
        arrow = mover.locator(".arrow").first
        side = arrow.get_attribute("data-action").split()[2]
        click_action(mover, arrow.get_attribute("data-action"))
        expect(mover.get_by_test_id("log").locator("li")).to_have_count(before + 1)
        side_words = {
            "left": "the left",
            "right": "the right",
            "top": "the top",
            "bottom": "the bottom",
        }[side]
        assert log_lines(mover)[-1].endswith(f"took the {value} and pushed it in from {side_words}")
        expect(mover.locator(".log-line.current")).to_have_count(1)
        expect(mover.locator(".grid-box.last-move")).to_have_count(1)
    screenshot(ann, "log-slide.png")
    # a reload keeps the whole game in the log
    lines = log_lines(ann)
    ann.reload()
    settled(ann)
    expect(ann.get_by_test_id("log").locator("li")).to_have_count(len(lines))
    assert log_lines(ann) == lines
    # the newest move is in view: the list is scrolled to the bottom
    assert ann.evaluate("""() => { const l = document.querySelector('.log-list');
        return l.scrollTop + l.clientHeight >= l.scrollHeight - 4; }""")
    # a phone: the log is on the page, nothing scrolls sideways
    ann.set_viewport_size({"width": 390, "height": 844})
    expect(ann.get_by_test_id("log")).to_be_visible()
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390
    ann.get_by_test_id("log").scroll_into_view_if_needed()
    screenshot(ann, "log-slide-phone.png")
    assert not ann.js_errors and not bob.js_errors


# -- 2. the end in words: why, and each player's own verdict -------------------------------
def test_the_end_says_why_and_gives_each_person_a_verdict(server, browser):
    srv = ws_server(server)
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    table = ann.new_table("slide", ["me", "open"])
    bob.post(f"/api/tables/{table['id']}/join")

    async def play() -> None:
        socks = [await c.connect(table["id"]) for c in (ann, bob)]
        for sock in socks:
            await sock.until(lambda s: True)
        await asyncio.gather(*(play_greedy(sock) for sock in socks))
        for sock in socks:
            await sock.close()

    in_thread(play())
    result = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert result["actions"]
    pages = [as_person(browser, server, c) for c in (ann, bob)]
    for page in pages:
        page.goto(f"/t/{table['id']}")
        expect(page.get_by_test_id("results")).to_be_visible()
        verdict = page.get_by_test_id("verdict")
        expect(verdict).to_have_text(re.compile(r"^You (came|shared) \w+ (of 2|place)"))
        # the verdict is the first thing of the results
        first = page.locator("[data-testid=results] h2 + *")
        expect(first).to_have_attribute("data-testid", "verdict")
        # the figures per player, once: a table, no list repeating it
        expect(page.get_by_test_id("figures")).to_contain_text("cards left")
        expect(page.get_by_test_id("result-lines")).to_have_count(0)
    texts = [p.get_by_test_id("verdict").inner_text() for p in pages]
    assert texts[0] != texts[1] or "shared" in texts[0]
    for page in pages:
        assert not page.js_errors


def test_the_game_says_who_could_not_play(server, browser):
    srv = ws_server(server)
    ann = Client(srv, "Ann")
    table = ann.new_table("the-game", ["me", "greedy"])

    async def play() -> None:
        sock = await ann.connect(table["id"])
        await sock.until(lambda s: True)
        await play_greedy(sock)
        await sock.close()

    in_thread(play())
    info = ann.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "over"
    page = as_person(browser, server, ann)
    page.goto(f"/t/{table['id']}")
    expect(page.get_by_test_id("verdict")).to_have_text(re.compile(r"^The team (won|did not win)"))
    # each player's hand and the draw pile, not only a total
    expect(page.get_by_test_id("figures")).to_contain_text("cards in hand")
    expect(page.get_by_test_id("table-figures")).to_contain_text("draw pile")
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    steps = len(record["actions"])
    expect(page.get_by_test_id("log").locator("li")).to_have_count(steps)
    assert any(line.startswith("Ann played ") for line in log_lines(page))
    assert any(line.startswith("Greedy (bot) ") for line in log_lines(page))
    screenshot(page, "log-the-game.png")
    assert not page.js_errors


def test_the_game_highlights_the_pile_just_played(server, browser):
    page = person(browser, server, "Tess")
    table = page.request.post(
        "/api/tables", data={"game": "the-game", "seats": ["me", "greedy"]}
    ).json()
    page.goto(f"/t/{table['id']}")
    settled(page)
    node = page.locator("[data-card][data-actions]").first
    action = node.get_attribute("data-actions").split("|")[0]
    _, card, pile = action.split()
    node.click()
    click_action(page, action)
    expect(page.locator(f'[data-pile="{pile}"] .pile-btn.last-move')).to_have_count(1)
    expect(page.get_by_test_id("log").locator("li").last).to_contain_text(f"Tess played {card} on ")
    # a move arrives with a short animation, and none for a person who asks for less motion
    probe = """() => { const d = document.createElement('div'); d.className = 'card arrive';
        document.body.append(d); const name = getComputedStyle(d).animationName;
        d.remove(); return name; }"""
    assert page.evaluate(probe) == "arrive"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(probe) == "none"
    assert not page.js_errors


# -- 3. Doublets: the log of a solitaire; the hint shows after "still winnable?" -------------
def test_doublets_log_and_the_hint_after_a_peek(server, browser):
    seed, moves = doublets_deal()
    page = person(browser, server, "Dora")
    table = page.request.post(
        "/api/tables", data={"game": "doublets", "seats": ["me"], "seed": seed}
    ).json()
    page.goto(f"/t/{table['id']}")
    settled(page)
    page.click("[data-key=peek]")
    expect(page.get_by_test_id("prompt")).to_contain_text("Peeking at the stock")
    page.click("[data-key=hint]")  # the hint's text shows at once, beside the peek's
    expect(page.get_by_test_id("prompt")).to_contain_text("Hint:")
    expect(page.get_by_test_id("prompt")).to_contain_text("Peeking at the stock")
    for move in moves[:12]:
        click_action(page, move)
    lines = log_lines(page)
    assert len(lines) == 12
    assert all(line.startswith("Dora ") for line in lines)
    played = [n for n, m in enumerate(moves[:12]) if m.startswith("play ")]
    if played:
        assert "to the foundation" in lines[played[0]]
    if moves[11].startswith("play "):
        expect(page.locator('[data-slot="foundation"] .card.last-move')).to_have_count(1)
    elif moves[11] == "flip":
        expect(page.locator('[data-slot="waste"] .card.last-move')).to_have_count(1)
    screenshot(page, "log-doublets.png")
    assert not page.js_errors


# -- 4. the replay: words, jump by a click on the log, a link to a move, autoplay -----------
def test_replay_reads_the_log_jumps_links_and_autoplays(server, browser):
    page = person(browser, server, "Viv")
    table = page.request.post(
        "/api/tables", data={"game": "the-game", "seats": ["greedy", "greedy"]}
    ).json()
    deadline = page.evaluate("Date.now()") + 60_000
    while page.request.get(f"/api/tables/{table['id']}").json()["status"] != "over":
        assert page.evaluate("Date.now()") < deadline, "the bots did not finish"
        page.wait_for_timeout(200)
    record = page.request.get(f"/api/tables/{table['id']}/record").json()
    steps = len(record["actions"])
    words = page.request.get(f"/api/tables/{table['id']}/replay?step=0&log=1").json()["log"]
    assert len(words) == steps
    # a link to a move
    page.goto(f"/t/{table['id']}/replay#move=5")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 5 of {steps}")
    expect(page.get_by_test_id("what")).to_have_text(words[4]["text"])
    expect(page.get_by_test_id("notation")).to_have_text(record["actions"][4][1])
    expect(page.locator(".log-line.current")).to_have_attribute("data-n", "4")
    # a click on a log line: the table after that move, and the address follows
    page.click("[data-key=log-9]")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 10 of {steps}")
    expect(page.get_by_test_id("what")).to_have_text(words[9]["text"])
    assert page.url.endswith("#move=10")
    # the pile of the move is highlighted when it was a play
    seat, action = record["actions"][9]
    if action.startswith("play "):
        expect(
            page.locator(f'[data-pile="{action.split()[2]}"] .pile-btn.last-move')
        ).to_have_count(1)
    page.wait_for_timeout(400)  # the last move's short animation is over
    screenshot(page, "replay.png")
    # ?move=N works as well
    page.goto(f"/t/{table['id']}/replay?move=3")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 3 of {steps}")
    # autoplay, fast, then pause: it went on, and stops when paused
    page.select_option("[data-testid=speed]", "120")
    page.click("[data-testid=play]")
    expect(page.get_by_test_id("play")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => Number(document.body.dataset.step) >= 8")
    page.click("[data-testid=play]")
    expect(page.get_by_test_id("play")).to_have_attribute("aria-pressed", "false")
    stopped = page.evaluate("Number(document.body.dataset.step)")
    page.wait_for_timeout(600)
    assert page.evaluate("Number(document.body.dataset.step)") == stopped
    # the phone width: the log is under the board, nothing scrolls sideways
    page.set_viewport_size({"width": 390, "height": 844})
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391)
        .map((e) => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    assert not page.js_errors
