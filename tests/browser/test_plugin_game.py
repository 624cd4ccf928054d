"""The fourth game, Fifteen, installed through the ``cardtable.games`` entry point only: it
has no renderer in static/games/, so the browser shows it with the generic one (its legal
actions as buttons, its view as a tree, its results from the generic ``result``). Created in
the lobby's form against a bot and played to the end by clicking, in Debian's Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

# Chromium, the server and the page helpers: as every browser test (and the skip without it)
from browser.test_browser import (
    click_action,
    person,
    screenshot,
    serving,
    settled,
    status,
    wait_change,
)


@pytest.fixture
def plugin_server(plugin_game, tmp_path):
    """A server started after the plugin is installed, so its process finds the game."""
    with serving(tmp_path / "data", tmp_path / "server.log") as base:
        yield base


def test_a_game_without_a_renderer_plays_in_the_browser(plugin_server, browser):
    page = person(browser, plugin_server, "Ann")
    page.goto("/")
    page.select_option("[name=game]", "fifteen")
    expect(page.locator("#seat-rows select")).to_have_count(2)
    # the game's fallback bot is the second seat's default, its option is in the form
    assert page.locator("#seat-rows select").nth(1).input_value() == "greedy"
    expect(page.locator("#opt-limit")).to_have_value("15")
    # Fifteen needs two players: it is not in the "Play alone" choice
    expect(page.locator("[name=alone-game] option[value=fifteen]")).to_have_count(0)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    settled(page)
    # the view as a readable tree: its keys as words
    tree = page.locator(".view-tree")
    expect(tree.locator("dt", has_text="hand sizes")).to_have_count(1)
    expect(tree.locator("dt", has_text="busts")).to_have_count(1)
    expect(page.locator("[data-seat='1']")).to_contain_text("(bot)")
    clicks = 0
    while status(page) != "over":
        settled(page)
        before = page.evaluate("document.body.dataset.version")
        buttons = page.locator('.moves button[data-action^="play "]')
        if status(page) == "running" and buttons.count():
            # the buttons are the legal actions, labelled with them: one per card in the hand
            labels = [b.inner_text() for b in buttons.all()]
            assert labels == [b.get_attribute("data-action") for b in buttons.all()]
            hand = page.locator(".view-tree dt[data-key-name=hand] + dd").inner_text()
            assert {label.split()[1] for label in labels} == set(hand.split(", "))
            if clicks == 2:
                screenshot(page, "generic.png")
            click_action(page, labels[-1])
            clicks += 1
            continue
        wait_change(page, before)
    assert clicks >= 3  # Ann played every card she was dealt or drew
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    # the generic results: a verdict naming the winners, and every seat's rank and score
    expect(results.locator(".verdict")).to_have_text(
        re.compile(r"^(You win!|You win, with .+!|.+ wins?\.)$"))
    rows = results.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(results).to_contain_text("Ann")
    expect(results).to_contain_text("Greedy")
    expect(page.locator(".moves")).to_have_count(0)  # no moves once it is over
    # the replay shows it generically too, read only
    page.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("step")).to_contain_text("Step 0 of ")
    expect(page.locator("#board .view-tree dt", has_text="hand sizes")).to_have_count(1)
    page.click("#last")
    expect(page.get_by_test_id("results").locator("tbody tr")).to_have_count(2)
    expect(page.locator("#board button[data-action]")).to_have_count(0)
    assert not page.js_errors, page.js_errors
