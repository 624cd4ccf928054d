"""The browser client, driven by Playwright in Debian's Chromium against a real server.

Every move is a click on an element that carries the action in ``data-action`` (or, for a
card that is picked first, the legal actions in ``data-actions``), so these tests read only
what the page shows. Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/*.png.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium "
        "(apt-get install chromium); no browser is downloaded",
        allow_module_level=True,
    )

from playwright.sync_api import Page, expect  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.bots import make_bot  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TIMEOUT = 15_000  # ms for one wait in the page


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(data: Path, log: Path, args: tuple[str, ...] = ()) -> Iterator[str]:
    """A ``cardtable serve`` subprocess on a free port (with this process's environment: its
    PYTHONPATH too), storing in ``data``, with more ``args``; its base URL once it answers."""
    port = free_port()
    env = {**os.environ, "CARDTABLE_DATA": str(data)}
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardtable",
                "serve",
                "--port",
                str(port),
                "--bot-delay",
                "0.05",
                *args,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.1)
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def person(browser, base: str, name: str | None, width: int = 1280) -> Page:
    """A page in its own browser context (its own cookie: its own person)."""
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=base)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a style or script the Content-Security-Policy blocks is an error too (Chromium logs it)
    page.on(
        "console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None
    )
    page.js_errors = errors  # checked at the end of each test
    if name:
        assert page.request.post("/api/me", data={"name": name}).ok
    return page


def screenshot(page: Page, name: str) -> None:
    if os.environ.get("CARDTABLE_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name))


def version(page: Page) -> str:
    return page.evaluate("document.body.dataset.version || ''")


def settled(page: Page) -> None:
    """Wait until no action of this page waits for the server's answer."""
    # a function, not an expression: Playwright evaluates an expression again at every poll,
    # and the page's Content-Security-Policy (no 'unsafe-eval') refuses that after the first
    page.wait_for_function("() => document.body.dataset.version && !document.body.dataset.busy")


def click_action(page: Page, action: str) -> None:
    """Click the element that carries ``action`` and wait for the server's new state."""
    settled(page)
    before = version(page)
    page.click(f'[data-action="{action}"]')
    page.wait_for_function(
        "v => document.body.dataset.version !== v && !document.body.dataset.busy", arg=before
    )


def wait_change(page: Page, before: str) -> None:
    page.wait_for_function(
        "v => document.body.dataset.version !== v || document.body.dataset.status === 'over'",
        arg=before,
    )


def status(page: Page) -> str:
    return page.evaluate("document.body.dataset.status || ''")


# -- 1. Slide against two bots, created in the lobby ------------------------------------------
def test_slide_against_two_bots(server, browser):
    page = person(browser, server, None)
    page.goto("/")
    page.fill("#welcome input", "Ann")
    page.click("#welcome button[type=submit]")
    expect(page.get_by_test_id("me-name")).to_have_text("Ann")
    page.select_option("[name=game]", "slide")
    page.select_option("[name=count]", "3")
    expect(page.locator("#seat-rows select")).to_have_count(3)
    assert page.locator("#seat-rows select").nth(1).input_value() == "greedy"
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    settled(page)
    shot = False
    while status(page) != "over":
        settled(page)
        before = version(page)
        phase = page.get_attribute(".slide-board", "data-phase")
        reveal = page.locator('[data-action^="reveal "]')
        if phase == "reveal" and reveal.count() and not page.locator(".card.choice").count():
            click_action(page, reveal.first.get_attribute("data-action"))
            continue
        centre = page.locator("[data-actions]")
        if phase == "take" and centre.count():
            if centre.count() > 1 or not page.locator(".arrow").count():
                centre.first.click()
            arrows = page.locator(".arrow")
            expect(arrows.first).to_be_visible()
            legal = set(centre.first.get_attribute("data-actions").split("|"))
            shown = {arrows.nth(i).get_attribute("data-action") for i in range(arrows.count())}
            assert shown == legal  # only the legal pushes of the picked card
            round_ = int(page.get_attribute(".slide-board", "data-round"))
            if round_ == 8 and not shot:
                screenshot(page, "slide.png")
                shot = True
            click_action(page, arrows.first.get_attribute("data-action"))
            continue
        wait_change(page, before)
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(results.locator("tbody tr")).to_have_count(3)
    assert "?" not in page.locator(".grids").inner_text()  # every card shows once it is over
    expect(page.get_by_test_id("replay-link")).to_be_visible()
    assert not page.js_errors


# -- 2. Doublets: a winning deal, played by clicking ----------------------------------------
def winning_deal() -> tuple[int, list[str]]:
    """A deal the greedy bot wins, and its moves."""
    game = games.get("doublets")
    for seed in range(500):
        state, bot, moves = game.deal(seed, 1), make_bot("greedy", "doublets"), []
        while not state.over:
            moves.append(bot.choose(state.view(0), state.legal(0)))
            state.act(0, moves[-1])
        if state.result()["won"]:
            return seed, moves
    raise AssertionError("no winning deal in 500 seeds")


def test_doublets_winning_deal(server, browser):
    seed, moves = winning_deal()
    page = person(browser, server, "Dora")
    page.goto("/")
    # the "Play alone" form lists the games that allow one player, pure solitaires first
    expect(page.locator("[name=alone-game]")).to_have_value("doublets")
    expect(page.get_by_test_id("play-alone")).to_have_text("Play Doublets")
    page.fill("#alone-deal", str(seed))
    page.get_by_test_id("play-alone").click()
    page.wait_for_url("**/t/*")
    settled(page)
    expect(page.get_by_test_id("deal")).to_have_text(f"Deal #{seed}")
    expect(page.get_by_test_id("stats")).to_contain_text("played")
    # the hint names a move and highlights it
    page.click("[data-key=hint]")
    expect(page.get_by_test_id("prompt")).to_contain_text("Hint:")
    expect(page.locator(".hinted")).to_have_count(1)
    # one move, undone and redone: the page follows the server each time
    click_action(page, moves[0])
    before = version(page)
    page.click("[data-key=undo]")
    wait_change(page, before)
    settled(page)
    before = version(page)
    page.click("[data-key=redo]")
    wait_change(page, before)
    for move in moves[1:]:  # (docs/screenshots/doublets.png: test_comforts.py)
        click_action(page, move)
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    assert results.get_attribute("data-won") == "true"
    # the end in the server's words: the player's verdict, the game's line
    expect(results.get_by_test_id("verdict")).to_have_text("You won!")
    expect(results).to_contain_text("All 48 cards are on the foundation: won!")
    expect(page.get_by_test_id("score")).to_have_text("48")
    expect(page.get_by_test_id("stats")).to_contain_text("1 (100%)")
    # no undo after the end (#11): taking back the win would reopen the game
    for key in ("undo", "redo"):
        expect(page.locator(f"[data-key={key}]")).to_have_count(0)
    assert not page.js_errors


# -- 3. The Game: two people at one table -----------------------------------------------------
def best_play(page: Page) -> str | None:
    """The smallest jump the page offers (a backwards trick first)."""
    tops = {
        p: int(page.get_attribute(f'[data-pile="{p}"] .pile-btn', "data-top"))
        for p in ("up1", "up2", "down1", "down2")
    }
    best = None
    for node in page.locator("[data-card][data-actions]").all():
        for action in node.get_attribute("data-actions").split("|"):
            _, card, pile = action.split()
            jump = int(card) - tops[pile] if pile.startswith("up") else tops[pile] - int(card)
            if best is None or jump < best[0]:
                best = (jump, card, action)
    return best and (best[1], best[2])


def play_turn(page: Page) -> None:
    """Play the minimum (best jumps), then end the turn."""
    while status(page) == "running":
        settled(page)
        if page.locator('[data-action="end"]').count():
            click_action(page, "end")
            return
        play = best_play(page)
        if play is None:
            return  # the server ends the game
        card, action = play
        page.click(f'[data-card="{card}"]')
        click_action(page, action)


def my_turn(page: Page) -> bool:
    return bool(page.locator('[data-actions], [data-action="end"]').count())


def test_the_game_two_people(server, browser):
    ann = person(browser, server, "Ann")
    sockets: list[str] = []
    ann.on("websocket", lambda ws: sockets.append(ws.url))
    ann.goto("/")
    ann.select_option("[name=game]", "the-game")
    ann.select_option("[name=count]", "2")
    ann.select_option("[name=seat-1]", "open")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url("**/t/*")
    invite = ann.get_by_test_id("invite").input_value()
    assert invite.endswith(ann.url.split("/t/")[1])

    bob = person(browser, server, None)
    bob.goto(invite)
    bob.get_by_test_id("join").click()
    bob.fill("dialog input[name=name]", "Bob")
    bob.click("dialog button[type=submit]")
    expect(bob.get_by_test_id("hand").locator("[data-card]")).to_have_count(7)
    expect(ann.get_by_test_id("hand").locator("[data-card]")).to_have_count(7)
    expect(ann.locator("[data-seat='1']")).to_contain_text("Bob")
    # the board names its moves: the page asks the server for no labels, and for the table
    # info only when it changed (docs/server.md)
    url = [u for u in sockets if "/ws/tables/" in u][0]
    assert url.endswith("?table=changed&labels=0"), url

    # a signal while it is not Bob's turn, seen at Ann's page
    click_action(bob, "signal up1 good")
    expect(ann.locator('[data-pile="up1"] [data-signal="1 good"]')).to_be_visible()

    turns = 0
    while status(ann) == "running":
        for page in (ann, bob):
            settled(page)
            if status(page) == "running" and my_turn(page):
                play_turn(page)
                turns += 1
                if turns == 6:
                    screenshot(ann, "the-game.png")
        if status(ann) == "running" and not my_turn(ann) and not my_turn(bob):
            ann.wait_for_timeout(50)
    for page in (ann, bob):
        expect(page.get_by_test_id("results")).to_be_visible()
    assert turns > 4
    assert not ann.js_errors and not bob.js_errors


# -- 4. reloading keeps the seat ---------------------------------------------------------------
def test_reload_keeps_seat(server, browser):
    page = person(browser, server, "Rita", width=375)  # a phone
    table = page.request.post(
        "/api/tables", data={"game": "the-game", "seats": ["me", "greedy"]}
    ).json()
    page.goto(f"/t/{table['id']}")
    settled(page)
    card = best_play(page)[0]
    page.click(f'[data-card="{card}"]')
    click_action(page, best_play(page)[1])
    hand = page.get_by_test_id("hand").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll
    page.reload()
    settled(page)
    assert page.get_by_test_id("hand").inner_text() == hand
    assert page.evaluate("document.body.dataset.seat") == "0"
    before = version(page)
    play = best_play(page)
    page.click(f'[data-card="{play[0]}"]')
    click_action(page, play[1])
    assert version(page) != before
    expect(page.locator('[data-action="end"]')).to_be_visible()  # two cards: may end now
    assert not page.js_errors


# -- 4b. the solitaire tools come from what the game offers -----------------------------------
def test_the_tools_of_a_game_played_alone_follow_what_it_offers(server, browser):
    """The Game alone: undo, redo, restart, a new deal (undo_alone, the server's can_undo
    and can_redo) and "still winnable?" (its solver), but no hint (it has no advisor)."""
    offers = {
        g["name"]: g for g in json.loads(urllib.request.urlopen(server + "/api/games").read())
    }["the-game"]
    assert offers["undo_alone"] and not offers["advisor"] and offers["solver"]
    page = person(browser, server, "Sol")
    page.goto("/")
    page.select_option("[name=alone-game]", "the-game")
    expect(page.get_by_test_id("play-alone")).to_have_text("Play The Game")
    page.get_by_test_id("play-alone").click()
    page.wait_for_url("**/t/*")
    settled(page)
    for key in ("undo", "redo", "restart", "new-deal", "peek"):
        expect(page.locator(f"[data-key={key}]")).to_have_count(1)
    expect(page.locator("[data-key=hint]")).to_have_count(0)
    expect(page.locator("[data-key=undo]")).to_be_disabled()  # nothing to take back yet
    cards = page.get_by_test_id("hand").locator("[data-card]")
    hand = [c.get_attribute("data-card") for c in cards.all()]
    card, action = best_play(page)
    page.click(f'[data-card="{card}"]')
    click_action(page, action)
    expect(cards).to_have_count(len(hand) - 1)
    expect(page.locator("[data-key=undo]")).to_be_enabled()
    before = version(page)
    page.click("[data-key=undo]")
    wait_change(page, before)
    settled(page)
    expect(cards).to_have_count(len(hand))
    assert [c.get_attribute("data-card") for c in cards.all()] == hand
    expect(page.locator("[data-key=redo]")).to_be_enabled()
    assert not page.js_errors


# -- 5. the replay page ------------------------------------------------------------------------
def test_replay_steps(server, browser):
    page = person(browser, server, "Viv")
    table = page.request.post(
        "/api/tables", data={"game": "slide", "seats": ["greedy", "random"]}
    ).json()
    running = page.request.get(f"/api/tables/{table['id']}/replay?step=1")
    deadline = time.monotonic() + 30
    while page.request.get(f"/api/tables/{table['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    if running.status != 200:  # asked while the game was running: refused
        assert running.status == 403
    record = json.loads(page.request.get(f"/api/tables/{table['id']}/record").text())
    steps = len(record["actions"])
    page.goto(f"/t/{table['id']}/replay")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 0 of {steps}")
    expect(page.get_by_test_id("what")).to_have_text("the deal")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 1 of {steps}")
    seat, action = record["actions"][0]
    expect(page.get_by_test_id("notation")).to_have_text(action)
    page.click("#next")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 2 of {steps}")
    page.click("#last")
    expect(page.get_by_test_id("step")).to_have_text(f"Step {steps} of {steps}")
    expect(page.get_by_test_id("results")).to_be_visible()
    assert "?" not in page.locator("#board").inner_text()
    page.fill("#slider", str(steps // 2))
    expect(page.get_by_test_id("step")).to_have_text(f"Step {steps // 2} of {steps}")
    page.keyboard.press("Home")
    expect(page.get_by_test_id("step")).to_have_text(f"Step 0 of {steps}")
    assert not page.js_errors


def finished_bots_table(page: Page) -> str:
    """A Slide table of two bots, played to its end: a shared deal (a 128-bit number)."""
    table = page.request.post(
        "/api/tables", data={"game": "slide", "seats": ["greedy", "random"]}
    ).json()
    deadline = time.monotonic() + 60
    while page.request.get(f"/api/tables/{table['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return table["id"]


def test_replay_shows_a_shared_deal_number_short(server, browser):
    page = person(browser, server, "Wyn", width=390)
    table_id = finished_bots_table(page)
    seed = page.request.get(f"/api/tables/{table_id}").json()["seed"]
    assert len(seed) > 20
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/t/{table_id}/replay")
    deal = page.locator("#seed")
    expect(deal).to_have_text(f"deal #{seed[:4]}…{seed[-4:]}")
    expect(deal).to_have_attribute("title", f"deal #{seed}")
    expect(deal).to_have_accessible_name(f"deal number {seed}")
    screenshot(page, "replay-deal-number-phone.png")
    page.get_by_test_id("copy-deal").click()
    expect(page.get_by_test_id("copy-deal")).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == seed
    # a solitaire's deal number is short: shown whole, nothing to copy
    alone = page.request.post(
        "/api/tables", data={"game": "doublets", "seats": ["me"], "seed": 4242}
    ).json()
    resigned = page.request.post(f"/api/tables/{alone['id']}/resign", data={})
    assert resigned.ok, resigned.text()
    page.goto(f"/t/{alone['id']}/replay")
    expect(deal).to_have_text("deal #4242")
    expect(page.get_by_test_id("copy-deal")).to_have_count(0)
    assert not page.js_errors


# -- 6. presence without a full state ----------------------------------------------------------
COUNT_MESSAGES = """
window.__messages = {};
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      const type = JSON.parse(e.data).type;
      window.__messages[type] = (window.__messages[type] || 0) + 1;
    });
  }
};
"""


def test_presence_shows_without_a_new_state(server, browser):
    """Another player's socket closing, or a spectator arriving, changes Ann's page through a
    small ``presence`` event: the seat's connected mark and the count of people watching."""
    ann = person(browser, server, "Ann")
    ann.add_init_script(COUNT_MESSAGES)
    table = ann.request.post("/api/tables", data={"game": "slide", "seats": ["me", "open"]}).json()
    bob = person(browser, server, "Bob")
    assert bob.request.post(f"/api/tables/{table['id']}/join", data={}).ok
    ann.goto(f"/t/{table['id']}")
    bob.goto(f"/t/{table['id']}")
    bobs_seat = ann.locator(".seat[data-seat='1']")
    expect(bobs_seat).to_have_attribute("aria-label", re.compile("at the table"))
    expect(bobs_seat.locator(".dot")).to_have_class(re.compile(r"\bon\b"))
    states = ann.evaluate("window.__messages.state")

    carl = person(browser, server, None)  # a spectator without a name
    carl.goto(f"/t/{table['id']}")
    expect(ann.get_by_test_id("spectators")).to_have_text("1 person watching")
    carl.context.close()
    expect(ann.get_by_test_id("spectators")).to_have_count(0)

    bob.context.close()  # Bob's socket closes
    expect(bobs_seat).to_have_attribute("aria-label", re.compile("away"))
    expect(bobs_seat.locator(".dot")).not_to_have_class(re.compile(r"\bon\b"))
    counts = ann.evaluate("window.__messages")
    assert counts["state"] == states, counts  # presence came as events, not as states
    assert counts["presence"] >= 3, counts
    assert not ann.js_errors
