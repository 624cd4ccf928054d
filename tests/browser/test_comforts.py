"""The comforts of #11 in Debian's Chromium, clicked and typed as a person would: Doublets'
drag to the foundation, double-click, keys, auto-play of forced moves and short deal numbers;
the rules pages one click from the lobby and the table; Slide on a phone (44 px arrows, the
others' grids behind tabs, the scoring note); a table that does not exist; the lobby's option
labels with seats counted from 1."""

from __future__ import annotations

import json
import re
import time
import urllib.request

from playwright.sync_api import Page, expect

# Chromium, the server and the page helpers: as every browser test (and the skip without it)
from browser.test_browser import (
    TIMEOUT,
    click_action,
    person,
    screenshot,
    server,  # noqa: F401 - the module's server fixture
    settled,
    status,
    version,
    wait_change,
)
from cardtable import games
from cardtable.bots import make_bot
from cardtable.games.doublets import NEXT
from cardtable.seeds import DEAL_NUMBERS

PHONE = {"width": 390, "height": 844}


def key_for(action: str) -> str:
    """The terminal's key for a Doublets action."""
    if action.startswith("play r"):
        return action[-1]
    return {"play waste": "w", "flip": "f", "redeal": "f"}[action]


def double_play_deal() -> tuple[int, list[str], str]:
    """A deal, the greedy bot's moves into it, and a reserve play after which the card that
    refills the slot plays too (where a double-click taken as two clicks would play twice)."""
    game = games.get("doublets")
    for seed in range(500):
        state, bot, moves = game.deal(seed, 1), make_bot("greedy", "doublets"), []
        while not state.over and len(moves) < 30:
            legal = state.legal(0)
            for action in legal:
                if action.startswith("play r") and len(legal) > 1:
                    card = state.reserves[int(action[-1]) - 1]
                    refill = (
                        state.waste[-1]
                        if state.waste
                        else (state.stock[-1] if state.stock else None)
                    )
                    if card is not None and refill is not None and refill >> 2 == NEXT[card >> 2]:
                        return seed, moves, action
            moves.append(bot.choose(state.view(0), legal))
            state.act(0, moves[-1])
    raise AssertionError("no such deal in 500 seeds")


def open_deal(page: Page, seed: int) -> None:
    page.goto("/")
    page.fill("#alone-deal", str(seed))
    page.get_by_test_id("play-alone").click()
    page.wait_for_url("**/t/*")
    settled(page)
    expect(page.get_by_test_id("deal")).to_have_text(f"Deal #{seed}")


def press(page: Page, key: str) -> None:
    """Press a key and wait for the server's new state."""
    settled(page)
    before = version(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "v => document.body.dataset.version !== v && !document.body.dataset.busy", arg=before
    )


def score(page: Page) -> int:
    return int(page.get_by_test_id("score").inner_text())


def test_doublets_keys_double_click_and_drag(server, browser):  # noqa: F811
    seed, moves, double = double_play_deal()
    page = person(browser, server, "Kit")
    open_deal(page, seed)
    # the keys are listed in a small help
    help_ = page.get_by_test_id("keys-help")
    help_.locator("summary").click()
    expect(help_).to_contain_text("Ctrl+Z")
    expect(help_.locator("kbd")).to_contain_text(["1 – 7", "w", "f", "u or Ctrl+Z"])
    # the moves into the deal, typed with the terminal's keys
    for move in moves:
        press(page, key_for(move))
    before = score(page)
    # a key whose move is not possible says why, and sends nothing
    blocked = next(f"play r{i}" for i in range(1, 8) if f"play r{i}" not in _legal(page))
    v = version(page)
    page.keyboard.press(blocked[-1])
    expect(page.get_by_test_id("prompt")).to_contain_text(f"r{blocked[-1]} cannot be played")
    assert version(page) == v
    # u undoes, Ctrl+Z too, Ctrl+Y redoes; h asks for a hint
    press(page, "u")
    assert score(page) <= before
    press(page, "Control+y")
    assert score(page) == before
    press(page, "Control+z")
    press(page, "Control+y")
    assert score(page) == before
    page.keyboard.press("h")
    expect(page.get_by_test_id("prompt")).to_contain_text("Hint:")
    # a double-click plays the card once, though the card that refills the slot plays too
    slot = double.split(" ")[1]
    settled(page)
    v = version(page)
    # as a person's: the second click comes after the server has answered the first, onto
    # the card that refilled the slot
    box = page.locator(f'[data-action="{double}"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down(click_count=1)
    page.mouse.up(click_count=1)
    page.wait_for_function(
        "v => document.body.dataset.version !== v && !document.body.dataset.busy", arg=v
    )
    expect(page.locator(f'[data-action="{double}"]')).to_be_enabled()
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    time.sleep(0.6)  # a second play would have come by now
    settled(page)
    assert score(page) == before + 1
    assert double in _legal(page)  # the refilled card is playable, and was not played
    # dragged onto the foundation, with the mouse
    card = page.locator(f'[data-action="{double}"]')
    box = card.bounding_box()
    target = page.locator("[data-slot=foundation] .pc").bounding_box()
    v = version(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(
            box["x"] + (target["x"] - box["x"]) * step / 10 + 20,
            box["y"] + (target["y"] - box["y"]) * step / 10 + 20,
        )
    expect(page.locator(".drag-ghost")).to_have_count(1)
    expect(page.locator("[data-slot=foundation].over")).to_have_count(1)
    page.mouse.up()
    page.wait_for_function(
        "v => document.body.dataset.version !== v && !document.body.dataset.busy", arg=v
    )
    settled(page)
    assert score(page) == before + 2
    expect(page.locator(".drag-ghost")).to_have_count(0)
    assert page.locator(f"[data-slot={slot}]").count() == 1
    # a drag that ends elsewhere plays nothing
    legal = [a for a in _legal(page) if a.startswith("play ")]
    if legal:
        card = page.locator(f'[data-action="{legal[0]}"]')
        box = card.bounding_box()
        v = version(page)
        page.mouse.move(box["x"] + 10, box["y"] + 10)
        page.mouse.down()
        page.mouse.move(box["x"] + 200, box["y"] + 300, steps=8)
        page.mouse.up()
        time.sleep(0.5)
        assert version(page) == v and score(page) == before + 2
    screenshot(page, "doublets.png")
    assert not page.js_errors


def _legal(page: Page) -> list[str]:
    return [x.get_attribute("data-action") for x in page.locator("[data-action]").all()]


def forced_run(seed: int) -> tuple[int, int] | None:
    """(stock, score) after the forced moves from the deal's start, if the deal starts with a
    forced move (only a flip possible) and stops before the end."""
    state = games.get("doublets").deal(seed, 1)
    if state.legal(0) != ["flip"]:
        return None
    while not state.over and len(state.legal(0)) == 1:
        state.act(0, state.legal(0)[0])
    return None if state.over else (len(state.stock), len(state.foundation))


def test_doublets_auto_plays_forced_moves_when_asked(server, browser):  # noqa: F811
    seed, stop = next((s, r) for s in range(500) if (r := forced_run(s)) is not None)
    page = person(browser, server, "Ada")
    open_deal(page, seed)
    box = page.get_by_test_id("autoplay")
    expect(box).not_to_be_checked()
    time.sleep(0.6)
    assert page.locator(".stockwaste").inner_text().count("stock 44") == 1  # nothing plays
    box.check()
    # the flips play themselves until there is a choice
    expect(page.locator(".stockwaste")).to_contain_text(f"stock {stop[0]}", timeout=TIMEOUT)
    settled(page)
    time.sleep(0.8)
    expect(page.locator(".stockwaste")).to_contain_text(f"stock {stop[0]}")
    assert score(page) == stop[1]
    assert len([a for a in _legal(page)]) > 1
    # remembered by the browser
    page.reload()
    settled(page)
    expect(page.get_by_test_id("autoplay")).to_be_checked()
    # right after an undo, the forced move does not play itself again
    v = version(page)
    page.keyboard.press("u")
    wait_change(page, v)
    settled(page)
    v = version(page)
    time.sleep(1.0)
    assert version(page) == v
    assert not page.js_errors


def test_new_deal_picks_a_short_deal_number(server, browser):  # noqa: F811
    page = person(browser, server, "Ned")
    open_deal(page, 12345)
    first = page.url
    page.click("[data-key=new-deal]")
    page.get_by_test_id("new-deal-yes").click()  # the deal under way counts as lost
    page.wait_for_url(lambda url: url != first and "/t/" in url)
    settled(page)
    shown = page.get_by_test_id("deal").inner_text()
    number = int(re.fullmatch(r"Deal #(\d+)", shown).group(1))
    assert 0 <= number < DEAL_NUMBERS
    table_id = page.url.rsplit("/", 1)[1]
    info = page.request.get(f"/api/tables/{table_id}").json()
    assert info["seed"] == str(number)
    assert not page.js_errors


def test_rules_one_click_from_the_lobby_and_the_table(server, browser):  # noqa: F811
    page = person(browser, server, "Rui")
    page.goto("/")
    page.select_option("[name=game]", "slide")
    link = page.get_by_test_id("rules-link")
    expect(link).to_have_text("Slide: rules")
    link.click()
    page.wait_for_url("**/rules/slide")
    expect(page.get_by_test_id("rules").locator("h1")).to_have_text("Slide")
    expect(page.locator(".rules table").first).to_be_visible()
    screenshot(page, "rules.png")
    # from a table: its game's rules, in a new tab (the game stays open)
    open_deal(page, 7)
    link = page.locator("#head").get_by_test_id("rules-link")
    with page.context.expect_page() as new:
        link.click()
    rules = new.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/doublets")
    expect(rules.get_by_test_id("rules").locator("h1")).to_have_text("Doublets")
    assert not page.js_errors


def test_a_table_that_does_not_exist(server, browser):  # noqa: F811
    page = person(browser, server, None)
    page.goto("/t/no-such-table")
    expect(page.get_by_test_id("no-table")).to_have_text("No such table")
    expect(page.locator("#head")).not_to_contain_text("Loading")
    page.locator("#board").get_by_role("link", name="Go to the lobby").click()
    page.wait_for_url(lambda url: url.rstrip("/").endswith(server.split("//")[1]))
    assert not page.js_errors


def test_the_lobby_labels_options_and_counts_seats_from_1(server, browser):  # noqa: F811
    page = person(browser, server, "Lea")
    page.goto("/")
    page.select_option("[name=game]", "the-game")
    page.select_option("[name=count]", "3")
    expect(page.locator("label[for=opt-min_after_empty]")).to_contain_text(
        "Cards a turn once the draw pile is empty"
    )
    expect(page.locator("#options")).not_to_contain_text("min_after_empty")
    start = page.locator("#opt-start")
    expect(page.locator("label[for=opt-start]")).to_contain_text("First player")
    expect(start.locator("option")).to_have_text(["Seat 1", "Seat 2", "Seat 3"])
    start.select_option(label="Seat 3")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    info = json.loads(urllib.request.urlopen(f"{server}/api/tables/{table_id}").read())
    assert info["options"]["start"] == 2  # the protocol's seat stays 0-based
    assert not page.js_errors


def slide_take_turn(page: Page) -> None:
    """Play a phone's Slide table on until the player may push a picked centre card."""
    while True:
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
            expect(page.locator(".arrow").first).to_be_visible()
            return
        assert status(page) != "over"
        wait_change(page, before)


def test_slide_on_a_phone(server, browser):  # noqa: F811
    page = person(browser, server, "Pia")
    page.set_viewport_size(PHONE)
    table = page.request.post(
        "/api/tables",
        data={"game": "slide", "seats": ["me", "greedy", "greedy"], "options": {}},
        headers={"x-cardtable": "1"},
    ).json()
    page.goto(f"/t/{table['id']}")
    settled(page)
    # how scoring works, told before the end
    note = page.get_by_test_id("scoring")
    note.locator("summary").click()
    expect(note).to_contain_text("lowest score wins")
    note.locator("summary").click()  # closed again: one line
    slide_take_turn(page)
    # every push arrow can take a finger
    arrows = page.locator(".arrow")
    for i in range(arrows.count()):
        box = arrows.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    # the others' grids: a tab each, on the first screen, one tap away
    tabs = page.get_by_role("tab")
    expect(tabs).to_have_count(3)
    for i in range(3):
        box = tabs.nth(i).bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], box
        assert box["x"] + box["width"] <= PHONE["width"], box  # all three on the screen
        assert box["height"] >= 44
    mine = page.locator(".grid-box[data-seat='0']")
    expect(mine).to_be_visible()  # (its screenshot: test_phone.py, slide-phone.png)
    page.locator("[data-tab='1']").click()
    other = page.locator(".grid-box[data-seat='1']")
    expect(other).to_be_visible()
    expect(mine).to_be_hidden()
    assert page.evaluate("window.scrollY") == 0
    box = other.bounding_box()
    assert box["y"] < PHONE["height"]  # it starts on the screen, without scrolling
    expect(page.locator("[data-tab='1']")).to_have_attribute("aria-selected", "true")
    # back to my own grid to play
    page.locator("[data-tab='0']").click()
    expect(mine).to_be_visible()
    assert not page.js_errors
