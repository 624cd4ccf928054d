"""Doublets in Debian's Chromium, issue #24: a deal with no move left keeps Undo, the hint
and Restart (held open until the player deals anew or leaves); "New deal" and "Restart" in
the middle of a deal ask first, in a dialog, saying that the deal counts as lost; hints in
words with the notation after them; the doubling cycle with the next needed card marked.
Writes docs/screenshots/doublets-stuck.png and doublets-new-deal.png with
CARDTABLE_SCREENSHOTS=1."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from browser.test_browser import (
    person,
    screenshot,
    server,  # noqa: F401 - the module's server fixture
    settled,
)
from browser.test_comforts import key_for, open_deal, press
from cardtable import games
from cardtable.bots import make_bot

STUCK_SEED = 3  # the greedy line gets stuck after 107 moves, 31 cards on the foundation
CYCLE = ["A", "2", "4", "8", "3", "6", "Q", "J", "9", "5", "10", "7"]


def greedy_line(seed: int) -> list[str]:
    state = games.get("doublets").deal(seed)
    bot = make_bot("greedy", "doublets")
    while not state.over:
        state.act(0, bot.choose(state.view(0), state.legal(0)))
    return [a for _, a in state.actions]


def needed(page: Page) -> str:
    return page.get_by_test_id("needed").locator("b").inner_text()


def stats(page: Page) -> str:
    return page.get_by_test_id("stats").inner_text().replace("\n", "").replace("\t", "")


def test_the_doubling_cycle_marks_the_next_needed_card(server, browser):  # noqa: F811
    page = person(browser, server, "Cyd")
    open_deal(page, STUCK_SEED)
    # a list screen readers read, the next needed value its current step, said in words
    cycle = page.get_by_role("list", name="Cycle")
    expect(cycle.locator("li")).to_have_text(
        [f"{v} (next needed)" if v == needed(page) else v for v in CYCLE]
    )
    expect(cycle.locator("li[aria-current=step]")).to_have_count(1)
    expect(cycle.locator("li[aria-current=step] .sr-only")).to_have_text(" (next needed)")
    line = greedy_line(STUCK_SEED)
    before = needed(page)
    for move in line[: next(i for i, m in enumerate(line) if m.startswith("play")) + 1]:
        press(page, key_for(move))  # the mark follows the foundation
    assert needed(page) != before
    expect(cycle.locator("li[aria-current=step]")).to_have_text(f"{needed(page)} (next needed)")
    assert not page.js_errors


def test_hints_read_in_words_with_the_notation_after(server, browser):  # noqa: F811
    page = person(browser, server, "Hal")
    open_deal(page, STUCK_SEED)
    page.click("[data-key=hint]")
    prompt = page.get_by_test_id("prompt")
    expect(prompt).to_contain_text(
        "Hint: Turn the next stock card: nothing on the table "
        f"fits the foundation (needs a {needed(page)}); 44 cards "
        "left in the stock"
    )
    expect(page.get_by_test_id("hint-notation")).to_have_text(" (flip)")
    expect(prompt).not_to_contain_text("flip: ")
    assert not page.js_errors


def test_a_stuck_deal_keeps_undo_hint_and_restart(server, browser):  # noqa: F811
    page = person(browser, server, "Stu")
    open_deal(page, STUCK_SEED)
    cycle = page.get_by_role("list", name="Cycle")
    prompt = page.get_by_test_id("prompt")
    line = greedy_line(STUCK_SEED)
    for move in line:
        press(page, key_for(move))
    # stuck: the page says so, and Undo, the hint and Restart are still there
    expect(page.get_by_test_id("status")).to_have_text("No move left")
    assert page.evaluate("document.body.dataset.status") == "running"
    expect(prompt).to_contain_text("No move is left")
    expect(page.get_by_test_id("score")).to_have_text("31")
    for key in ("undo", "hint", "restart"):
        expect(page.locator(f"[data-key={key}]")).to_be_enabled()
    expect(page.get_by_test_id("results")).to_have_count(0)
    expect(cycle.locator("li[aria-current=step]")).to_have_text(f"{needed(page)} (next needed)")
    screenshot(page, "doublets-stuck.png")
    page.click("[data-key=hint]")
    expect(prompt).to_contain_text("Hint: No move is left: nothing on the table fits")
    expect(page.get_by_test_id("stats")).to_contain_text("played0")
    # undo takes the last move back: the deal plays on
    press(page, "u")
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    assert page.locator("[data-action]").count() >= 1
    press(page, "Control+y")
    expect(page.get_by_test_id("status")).to_have_text("No move left")
    # My games lists it as the person's to decide
    page.goto("/me")
    expect(page.get_by_test_id("your-turn")).to_contain_text("no move left: undo, or deal again")
    page.go_back()
    settled(page)
    expect(page.get_by_test_id("status")).to_have_text("No move left")
    # a new deal from a stuck deal asks nothing (it is lost already) and counts it, played
    # to its end with its score
    first = page.url
    page.click("[data-key=new-deal]")
    page.wait_for_url(lambda url: url != first and "/t/" in url)
    settled(page)
    expect(page.get_by_test_id("stats")).to_contain_text("played1")
    expect(page.get_by_test_id("stats")).to_contain_text("best score31")
    page.goto(first)
    settled(page)
    expect(page.get_by_test_id("status")).to_have_text("Game over")
    # the end in the server's words (Game.verdict, result_lines)
    expect(page.get_by_test_id("verdict")).to_have_text("You did not win.")
    expect(page.get_by_test_id("results")).to_contain_text(
        "Score 31 of 48 cards on the foundation."
    )
    assert not page.js_errors


def test_a_new_deal_or_restart_under_way_asks_first(server, browser):  # noqa: F811
    page = person(browser, server, "Ada")
    open_deal(page, STUCK_SEED)
    first = page.url
    press(page, key_for(greedy_line(STUCK_SEED)[0]))
    # New deal: an alert dialog that says the deal counts as lost, "Keep playing" focused
    page.click("[data-key=new-deal]")
    dialog = page.get_by_role("alertdialog", name="Start a new deal?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("counts as a lost game in your statistics")
    expect(page.get_by_test_id("new-deal-no")).to_be_focused()
    screenshot(page, "doublets-new-deal.png")
    page.keyboard.press("Escape")  # the keyboard keeps the deal
    expect(dialog).to_have_count(0)
    assert page.url == first
    # Restart too; Enter on the focused choice keeps playing
    page.click("[data-key=restart]")
    restart = page.get_by_role("alertdialog", name="Restart this deal?")
    expect(restart).to_contain_text("counts as a lost game")
    page.keyboard.press("Enter")
    expect(restart).to_have_count(0)
    assert page.url == first
    expect(page.get_by_test_id("stats")).to_contain_text("played0")
    press(page, "u")  # the page still plays
    # a deal given up from the keyboard: Shift+Tab to the choice that deals anew, Enter
    page.click("[data-key=new-deal]")
    expect(page.get_by_test_id("new-deal-no")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_test_id("new-deal-yes")).to_be_focused()
    expect(page.get_by_test_id("new-deal-yes")).to_have_text("New deal (counts as lost)")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: url != first and "/t/" in url)
    settled(page)
    expect(page.get_by_test_id("stats")).to_contain_text("played1")
    expect(page.get_by_test_id("stats")).to_contain_text("won0 (0%)")
    assert not page.js_errors
