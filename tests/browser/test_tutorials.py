"""Each game's tutorial in Debian's Chromium (issue #27): started from the lobby's "Learn to
play" (and from a rules page), the tutor speaks beside the board and marks its move, a move
other than the suggestion is explained and the tutorial goes on, and a finished tutorial is
remembered with a check mark in the lobby."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browser.conftest import CHROMIUM, reader

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

from playwright.sync_api import Page, expect  # noqa: E402

from browser.test_browser import TIMEOUT, serving, settled  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("log") / "server.log"
    args = ("--new-players-per-minute", "0", "--bot-delay", "0.05")
    with serving(tmp_path_factory.mktemp("data"), log, args) as base:
        yield base


def learner(browser, base: str, name: str = "Lea") -> Page:
    return reader(browser, base, None, name, TIMEOUT, viewport={"width": 1280, "height": 900})


def suggested(page: Page) -> str:
    """The move the tutor suggests now (once its answer for this position is in)."""
    button = page.get_by_test_id("tutor-play")
    expect(button).to_be_enabled()
    return button.get_attribute("data-suggest") or ""


def play_suggestion(page: Page) -> None:
    settled(page)
    before = page.evaluate("() => document.body.dataset.version")
    # the tutor's answer for this position first (a loaded machine makes it wait)
    expect(page.get_by_test_id("tutor-play")).to_be_enabled(timeout=30_000)
    page.get_by_test_id("tutor-play").click()
    page.wait_for_function("(v) => document.body.dataset.version !== v", arg=before)


def start(page: Page, game: str) -> None:
    page.goto("/")
    page.get_by_test_id(f"learn-{game}").click()
    page.wait_for_url("**/t/*")
    expect(page.get_by_test_id("practice-badge")).to_be_visible()
    expect(page.get_by_test_id("tutor-text")).not_to_be_empty()


def deviate(page: Page, game: str) -> None:
    """Play a move other than the suggestion, through the board."""
    settled(page)
    suggestion = suggested(page)
    if game == "the-game":  # another card of the hand, on a pile that takes it
        page.locator("[data-actions]:not(.suggested)").first.click()
        page.locator(".pile-btn.target").first.click()
    else:  # another cell to reveal (Slide), the stock instead of a card that fits (Doublets)
        page.locator(f'[data-action]:not([data-action="{suggestion}"])').first.click()
    expect(page.get_by_test_id("tutor-deviation")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("tutor-deviation")).to_contain_text(suggestion)


@pytest.mark.parametrize("game", ["slide", "doublets", "the-game"])
def test_a_tutorial_teaches_its_first_steps_and_explains_a_deviation(browser, server, game):
    page = learner(browser, server)
    start(page, game)
    assert page.locator("#side [aria-live=polite][data-testid=tutor-text]").count() == 1
    first = page.get_by_test_id("tutor-text").inner_text()
    assert suggested(page)
    assert page.locator(".suggested").count(), "the suggested move is marked on the board"
    if game == "slide":  # the first reveal, another cell than the one suggested
        deviate(page, game)
        play_suggestion(page)
    else:
        play_suggestion(page)
        expect(page.get_by_test_id("tutor-text")).not_to_have_text(first)
        deviate(page, game)
        play_suggestion(page)  # the tutor goes on from the new position
    expect(page.get_by_test_id("tutor-deviation")).to_have_count(0)
    assert not page.js_errors
    page.context.close()


def test_a_finished_tutorial_is_remembered_in_the_lobby(browser, server):
    page = learner(browser, server, "Finn")
    page.goto("/rules/doublets")
    page.get_by_test_id("learn-link").click()  # the rules page's way in
    page.wait_for_url("**/t/*")
    expect(page.get_by_test_id("tutor")).to_be_visible()
    either = page.locator("[data-testid=tutor-done], [data-testid=tutor-play]:enabled")
    for _ in range(300):
        # the tutor's answer to the last move first: the end, or the next suggestion
        expect(either.first).to_be_visible(timeout=30_000)
        if page.get_by_test_id("tutor-done").count():
            break
        play_suggestion(page)
    expect(page.get_by_test_id("tutor-done")).to_be_visible()
    page.goto("/")
    expect(page.get_by_test_id("learned-doublets")).to_be_visible()
    expect(page.get_by_test_id("learned-slide")).to_have_count(0)
    assert not page.js_errors
    page.context.close()
