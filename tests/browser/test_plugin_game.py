"""The fourth game, Fifteen, installed through the ``cardtable.games`` entry point only: it
has no renderer in static/games/, so the browser shows it with the generic one (its legal
actions as buttons, its view as a tree, its results from the generic ``result``). Created in
the lobby's form against a bot and played to the end by clicking, in Debian's Chromium."""

from __future__ import annotations

import json
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
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
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
    # the generic buttons read the server's labels: the page asked for them
    assert sockets and all(u.endswith("?table=changed") for u in sockets), sockets
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    # the generic results in the server's words: the player's place, the winners, and every
    # seat's rank and score
    expect(results.get_by_test_id("verdict")).to_have_text(
        re.compile(r"^You (came|shared) \w+ (of 2|place)")
    )
    expect(results.locator(".verdict")).to_have_text(
        re.compile(r"^(Winner: .+|Shared win: .+|Nobody won\.)$")
    )
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


def tools_listed(page) -> list[str]:
    """The ``tools`` of the last state message the page was sent (its own websocket's
    frames), once the page shows that state."""
    settled(page)
    shown = page.evaluate("document.body.dataset.version")
    states = [
        m
        for m in map(json.loads, page.frames_in)
        if m["type"] == "state" and str(m["version"]) == shown
    ]
    return states[-1]["tools"]


def tools_shown(page) -> list[str]:
    return [b.get_attribute("data-tool") for b in page.locator(".tools [data-tool]").all()]


def watch_frames(page) -> None:
    """Keep every websocket frame the page receives, as the server sent it."""
    frames: list[str] = []
    page.frames_in = frames
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))


def test_the_page_shows_exactly_the_tools_the_server_lists(plugin_server, browser):
    """#23: the page derives no tool of its own. Fifteen has a solver but is played only at
    shared tables: no tool, and its /winnable is refused. Doublets alone: every tool for the
    person, none for a spectator, and no undo or redo once the deal is closed."""
    ann, bob = person(browser, plugin_server, "Ann"), person(browser, plugin_server, "Bob")
    for page in (ann, bob):
        watch_frames(page)
    shared = ann.request.post(
        "/api/tables", data={"game": "fifteen", "seats": ["me", "greedy"]}
    ).json()
    ann.goto(f"/t/{shared['id']}")
    expect(ann.locator(".moves")).to_be_visible()
    assert tools_listed(ann) == tools_shown(ann) == []
    expect(ann.locator("[data-key=peek]")).to_have_count(0)
    peek = ann.request.get(f"/api/tables/{shared['id']}/winnable")
    assert peek.status == 403 and peek.json()["error"] == "not_offered"

    solo = ann.request.post("/api/tables", data={"game": "doublets", "seats": ["me"]}).json()
    ann.goto(f"/t/{solo['id']}")
    bob.goto(f"/t/{solo['id']}")
    expect(ann.locator(".tools [data-tool]")).to_have_count(6)
    assert (
        tools_listed(ann)
        == tools_shown(ann)
        == ["undo", "redo", "hint", "peek", "restart", "new_deal"]
    )
    expect(bob.locator("#board")).not_to_be_empty()
    assert tools_listed(bob) == tools_shown(bob) == []
    assert bob.request.get(f"/api/tables/{solo['id']}/hint").json()["error"] == "not_offered"
    # a new deal in its place (from another tab) closes it: no more undo or redo
    assert ann.request.post(
        "/api/tables", data={"game": "doublets", "seats": ["me"], "replaces": solo["id"]}
    ).ok
    expect(ann.locator("body[data-status=over]")).to_have_count(1)
    expect(ann.locator("[data-key=undo]")).to_have_count(0)
    assert tools_listed(ann) == tools_shown(ann) == ["hint", "peek", "restart", "new_deal"]
    assert not ann.js_errors and not bob.js_errors, ann.js_errors + bob.js_errors
