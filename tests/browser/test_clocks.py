"""Clocks and "your turn" signals in Chromium: a real-time table created in the lobby's form,
each seat's clock counting down from the server's deadline, the tab title, the generated
sound (muted by a toggle that the page remembers) and a notification while the tab is hidden,
only when this seat is really to act. Set CARDTABLE_SCREENSHOTS=1 to write
docs/screenshots/clock.png.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect  # (after the skip, as in test_browser)

# Chromium, the server and the page helpers: as every browser test (and the skip without it)
from browser.test_browser import person, screenshot, serving, settled, status, version


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


#: the tab is "hidden" when the test says so (headless Chromium's tab is always visible), and
#: every notification the page makes is counted by the browser's own Notification
HIDDEN = """
Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
"""


def signals(page: Page) -> dict:
    return page.evaluate("() => ({...window.cardtableSignals})")


def my_turn(page: Page) -> bool:
    return page.evaluate("() => document.body.dataset.myTurn === '1'")


def play_one(page: Page) -> None:
    """This page's seat makes one move (a reveal, or a take and push)."""
    settled(page)
    before = version(page)
    reveal = page.locator('[data-action^="reveal "]')
    if page.get_attribute(".slide-board", "data-phase") == "reveal":
        page.click(f'[data-action="{reveal.first.get_attribute("data-action")}"]')
    else:
        centre = page.locator("[data-actions]")
        if centre.count() > 1 or not page.locator(".arrow").count():
            centre.first.click()
        page.locator(".arrow").first.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)


def test_a_real_time_table_shows_clocks_and_signals_the_turn(server, browser):
    ann = person(browser, server, "Ann")
    ann.context.grant_permissions(["notifications"])
    ann.add_init_script(HIDDEN)
    ann.goto("/")
    ann.select_option("[name=game]", "slide")
    ann.select_option("[name=count]", "2")
    ann.locator("#seat-rows select").nth(1).select_option("open")
    expect(ann.get_by_test_id("clock-time")).to_be_hidden()  # no clock: the default
    ann.select_option("[name=clock-mode]", "move")
    ann.select_option("[name=clock-time]", "60")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url("**/t/*")
    settled(ann)
    assert not my_turn(ann) and not ann.title().startswith("▶")  # waiting for Bob
    table_url = ann.url

    bob = person(browser, server, "Bob")
    bob.goto(table_url)
    bob.get_by_test_id("join").click()
    bob.wait_for_function("() => document.body.dataset.seat === '1'")
    # nothing is asked on load: the page offers a button and asks only when it is clicked
    expect(bob.get_by_test_id("notify")).to_be_visible()
    assert bob.evaluate("() => Notification.permission") == "default"

    # both are to choose their reveal: two clocks count down from the server's deadline
    ann.wait_for_function("() => document.body.dataset.myTurn === '1'")
    clocks = ann.get_by_test_id("clock")
    expect(clocks).to_have_count(2)
    expect(ann.get_by_test_id("clock-badge")).to_be_visible()  # in the head: in sight on a phone
    expect(ann.locator(".clocks .clock.running")).to_have_count(2)
    first = ann.locator(".clocks .clock .time").first.inner_text()
    assert first in ("1:00", "0:59", "0:58"), first
    time.sleep(1.3)
    assert ann.locator(".clocks .clock .time").first.inner_text() != first  # it counts down
    assert ann.title() == "▶ Your turn — Slide"
    assert signals(ann)["sounds"] == 1  # the turn came: one chime
    screenshot(ann, "clock.png")
    ann.set_viewport_size({"width": 390, "height": 844})  # a phone: the clocks below the board
    screenshot(ann, "clock-phone.png")
    ann.set_viewport_size({"width": 1280, "height": 900})

    # Ann chooses: her seat is out of to_act, so no longer signalled while Bob chooses
    play_one(ann)
    ann.wait_for_function("() => document.body.dataset.myTurn === ''")
    assert not ann.title().startswith("▶")
    expect(ann.locator(".clocks .clock.running")).to_have_count(1)
    # Bob mutes his sound; the page remembers it
    bob.get_by_test_id("mute").click()
    assert bob.evaluate("() => localStorage.getItem('cardtable.sound')") == "off"
    bob.reload()
    expect(bob.get_by_test_id("mute")).to_have_text("♪ Sound off")

    # Ann's tab goes to the background; when her turn comes, a notification says so
    ann.evaluate("() => { window.__hidden = true; }")
    for _ in range(10):
        if my_turn(ann):
            break
        if bob.evaluate("() => document.body.dataset.myTurn === '1'"):
            play_one(bob)
        else:
            time.sleep(0.2)
    ann.wait_for_function("() => document.body.dataset.myTurn === '1'")
    assert signals(ann)["sounds"] == 2
    assert signals(ann)["notifications"] == 1
    assert signals(bob)["sounds"] == 0  # muted
    assert status(ann) == "running"
    assert ann.js_errors == [] and bob.js_errors == []


def test_the_time_choices_are_listed_shortest_first(server, browser):
    """Each clock mode lists its times in increasing order, its default selected at first."""
    ann = person(browser, server, "Cy")
    ann.goto("/")
    ann.select_option("[name=game]", "slide")
    defaults = {"move": "120", "game": "900", "turn": "86400"}  # clock.py DEFAULTS
    for mode, default in defaults.items():
        ann.select_option("[name=clock-mode]", mode)
        time_choice = ann.get_by_test_id("clock-time")
        expect(time_choice).to_be_visible()
        values = [
            int(v)
            for v in time_choice.locator("option").evaluate_all(
                "options => options.map(o => o.value)"
            )
        ]
        assert values == sorted(values) and len(set(values)) == len(values), (mode, values)
        expect(time_choice).to_have_value(default)
    assert not ann.js_errors, ann.js_errors
    ann.context.close()
