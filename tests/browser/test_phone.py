"""A phone and a keyboard at the table (issue #24), in Debian's Chromium against a real server:
The Game's signals are explained (each button points to the rule book's words), take a finger
(44 px on a phone) and sit after the hand, which a few Tabs reach; the top bar takes a small
share of a phone's screen, its links behind a Menu button; and a whole Slide grid, every push
arrow included, fits a 390 x 844 screen at the move without scrolling.

Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/the-game-signals-phone.png and
slide-phone.png.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

# Chromium, the server and the page helpers: as every browser test (and the skip without it)
from browser.test_browser import (
    click_action,
    person,
    screenshot,
    server,  # noqa: F401 - the module's server fixture
    settled,
)
from browser.test_comforts import PHONE, slide_take_turn

DESKTOP = {"width": 1280, "height": 900}
#: the rule book's examples of allowed talk (RULES.md, The Game, "Talking")
SAID = {
    "avoid": "don't play on this pile",
    "small": "only a very small jump",
    "good": "I have good cards for this pile",
}
IN_HAND = "el => !!el && !!el.closest('[data-testid=hand]') && el.matches('[data-card]')"


def tabs_to_hand(page: Page, most: int = 40) -> int:
    """How many Tab presses from the top of the page reach the first card of the hand."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    page.locator("body").focus()
    for n in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => ({IN_HAND})(document.activeElement)"):
            return n
    raise AssertionError(f"no card of the hand within {most} Tabs")


def the_game_at_my_turn(page: Page) -> None:
    table = page.request.post(
        "/api/tables", data={"game": "the-game", "seats": ["me", "greedy"]}
    ).json()
    page.goto(f"/t/{table['id']}")
    page.wait_for_selector("[data-testid=hand] [data-actions]")  # the first turn is ours
    settled(page)


def test_the_game_signals_are_explained_reachable_and_big_enough(server, browser):  # noqa: F811
    page = person(browser, server, "Sig")
    the_game_at_my_turn(page)
    # the hand comes before the twelve signal buttons: a few Tabs (20 before #24; one more
    # since the skip link, which itself reaches the hand in two: test_keyboard.py; one for
    # the top bar's language switcher, one for its Tournaments link)
    assert tabs_to_hand(page) <= 11
    signals = page.locator(".tg-signals [data-signal-kind]")
    expect(signals).to_have_count(12)
    # each button is explained: it points to a visible line in the rule book's words
    for i in range(12):
        button = signals.nth(i)
        kind = button.get_attribute("data-signal-kind")
        help_id = button.get_attribute("aria-describedby")
        assert help_id, kind
        explained = page.locator(f"#{help_id}")
        expect(explained).to_be_visible()
        expect(explained).to_contain_text(SAID[kind])
        expect(explained).to_contain_text(kind)
    # the twelve are one Tab stop, the arrow keys go between them
    signals.first.focus()
    page.keyboard.press("ArrowRight")
    expect(signals.nth(1)).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # wraps to the last
    expect(signals.nth(11)).to_be_focused()
    page.keyboard.press("Tab")
    assert not page.evaluate("() => !!document.activeElement.closest('.tg-signals')")
    # a signal is a toggle: given, shown pressed and on the pile, taken back by a second press
    good = page.locator("[data-key='sig-up1-good']")
    click_action(page, "signal up1 good")
    expect(good).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-pile="up1"] [data-signal="0 good"]')).to_be_visible()
    expect(good).to_have_attribute("data-action", "signal up1 clear")

    # a phone: 44 px targets, the hand still a few Tabs away (the links behind the Menu)
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector("[data-testid=hand] [data-actions]")
    settled(page)
    assert tabs_to_hand(page) <= 5
    for i in range(12):
        box = signals.nth(i).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("() => document.querySelector('[data-testid=prompt]').scrollIntoView()")
    screenshot(page, "the-game-signals-phone.png")
    assert not page.js_errors


def test_a_phone_header_is_one_line_and_a_slide_grid_fits_the_screen(server, browser):  # noqa: F811
    page = person(browser, server, "Pia")
    page.set_viewport_size(PHONE)
    table = page.request.post(
        "/api/tables",
        data={"game": "slide", "seats": ["me", "greedy", "greedy"], "options": {}},
        headers={"x-cardtable": "1"},
    ).json()
    page.goto(f"/t/{table['id']}")
    settled(page)
    bar = page.locator("header.topbar")
    height = bar.bounding_box()["height"]
    assert height <= 80, f"the top bar takes {height} px of 844"
    # the links and the person's buttons are one tap away
    expect(page.get_by_test_id("my-games-link")).to_be_hidden()
    page.get_by_test_id("menu").click()
    expect(page.get_by_test_id("menu")).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_test_id("my-games-link")).to_be_visible()
    expect(page.get_by_test_id("me-name")).to_have_text("Pia")
    page.get_by_test_id("menu").click()
    expect(page.get_by_test_id("my-games-link")).to_be_hidden()
    # Escape closes it from inside, and the focus goes back to the Menu button
    page.get_by_test_id("menu").click()
    page.get_by_test_id("my-games-link").focus()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("my-games-link")).to_be_hidden()
    expect(page.get_by_test_id("menu")).to_be_focused()
    expect(page.get_by_test_id("menu")).to_have_attribute("aria-expanded", "false")

    # at the move: the whole grid, every arrow, on the first screen
    slide_take_turn(page)
    assert page.evaluate("window.scrollY") == 0
    grid = page.locator(".grid-box[data-seat='0'] .sgrid").bounding_box()
    assert grid["y"] + grid["height"] <= PHONE["height"], grid
    arrows = page.locator(".arrow")
    assert arrows.count() >= 2
    for i in range(arrows.count()):
        box = arrows.nth(i).bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], (i, box)
        assert box["width"] >= 44 and box["height"] >= 44, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "slide-phone.png")

    # a wide screen is as before: every link in the bar, no Menu button, one line
    page.set_viewport_size(DESKTOP)
    expect(page.get_by_test_id("menu")).to_be_hidden()
    expect(page.get_by_test_id("my-games-link")).to_be_visible()
    assert bar.bounding_box()["height"] <= 60
    assert not page.js_errors
