"""Each game's end reads right (issue #24), in Debian's Chromium against a real server: the
Slide log tells the card each reveal turned up once every seat has chosen, keeps no change
of mind and ends with the scoring; the results panel shows each game's figures per player
(and the table's own: The Game's draw pile, Doublets' foundation) in one table, no list
repeating them, on the table page and at the replay's end. Games are played by real
websocket clients (tests/server/conftest.py), then looked at with the same person's cookie.

Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/slide-end.png, slide-end-phone.png,
the-game-end.png, the-game-end-phone.png, doublets-end.png and doublets-end-phone.png.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.test_browser import SHOTS, serving, winning_deal
from browser.test_log import as_person, in_thread, log_lines, ws_server
from server.conftest import Client
from server.test_seats import play_greedy


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("results") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def shots(page: Page, name: str) -> None:
    """The end of a game as a person sees it: the whole page at 1280 px (the results, the
    board and the log beside it), the top at 390 px (the results on a phone)."""
    if os.environ.get("CARDTABLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(200)  # a new layout, not a new state
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def play(clients: list[Client], table_id: str, change_mind: bool = False) -> dict[str, Any]:
    """Every client plays its seat greedily to the end (the first one changes its mind at
    its first reveal first); the last state the first one was sent."""

    async def run() -> dict[str, Any]:
        socks = [await c.connect(table_id) for c in clients]
        for sock in socks:
            await sock.until(lambda s: True)
        if change_mind:
            first = socks[0].state["legal"]
            assert (await socks[0].act(first[0]))["type"] == "ack"
            assert (await socks[0].act(first[-1]))["type"] == "ack"
        await asyncio.gather(*(play_greedy(sock) for sock in socks))
        last = await socks[0].until(lambda s: s["table"]["status"] == "over")
        for sock in socks:
            await sock.close()
        return last

    out: list[dict[str, Any]] = []

    async def keep() -> None:
        out.append(await run())

    in_thread(keep())
    return out[0]


def figures(page: Page) -> tuple[list[str], list[list[str]]]:
    """The results' table of figures: its headings and its rows."""
    table = page.get_by_test_id("results").get_by_test_id("figures")
    heads = table.locator("th").all_inner_texts()
    rows = [row.locator("td").all_inner_texts() for row in table.locator("tbody tr").all()]
    return heads, rows


# -- Slide: the log tells the revealed cards and the scoring; the figures per player --------
def test_slide_end_reads_the_reveals_the_scoring_and_each_players_figures(server, browser):
    srv = ws_server(server)
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    table = ann.new_table("slide", ["me", "open", "greedy"])
    bob.post(f"/api/tables/{table['id']}/join")
    last = play([ann, bob], table["id"], change_mind=True)
    result = last["view"]["result"]
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    # Ann's first two actions: a choice, then a change of mind (the bot may choose before)
    first_choice, second_choice = [a for seat, a in record["actions"] if seat == 0][:2]
    assert first_choice != second_choice and first_choice.startswith("reveal ")

    page = as_person(browser, server, bob)
    page.goto(f"/t/{table['id']}")
    expect(page.get_by_test_id("results")).to_be_visible()
    # the log: no change of mind, every reveal with its card, the scoring at the end
    lines = log_lines(page)
    assert len(lines) == len(record["actions"]) - 1 + 1, lines[:5]
    cell = second_choice.split()[1]
    anns = next(line for line in lines if line.startswith("Ann "))  # her first line
    assert re.fullmatch(rf"Ann revealed an? \d+ from {cell}", anns), lines[:3]
    assert not any(" chose " in line for line in lines)
    assert sum(" revealed " in line for line in lines) == 3 * 16
    names = ["Ann", "Bob", "Greedy (bot)"]
    seats = result["deals"][0]["seats"]
    assert lines[-1] == "Scoring: " + "; ".join(
        f"{n} cancelled {len(s['removed'])} cards, {s['remaining']} left sum to {s['score']}"
        for n, s in zip(names, seats, strict=True)
    )
    news = page.locator(".log-news")
    expect(news).to_have_count(1)
    expect(news).not_to_have_class(re.compile(r"\bcurrent\b"))
    # the results: one table of figures per player, by rank; no list of the same facts
    heads, rows = figures(page)
    assert heads == ["rank", "player", "sum", "cards left", "cancelled"]
    order = sorted(range(3), key=lambda s: (result["ranks"][s], s))
    assert [[r[0], r[2], r[3], r[4]] for r in rows] == [
        [
            str(result["ranks"][s]),
            str(result["scores"][s]),
            str(result["remaining"][s]),
            str(len(seats[s]["removed"])),
        ]
        for s in order
    ]
    expect(page.get_by_test_id("result-lines")).to_have_count(0)
    expect(page.get_by_test_id("results")).to_contain_text("a tie goes to fewer cards left")
    shots(page, "slide-end")
    # the replay's end: the same figures, the scoring last in its log
    page.goto(f"/t/{table['id']}/replay")
    # the steps known (the first step drawn) before "last" can go to the end
    expect(page.get_by_test_id("step")).to_have_text(re.compile(r"Step 0 of [1-9]"))
    page.click("#last")
    expect(page.get_by_test_id("results")).to_be_visible()
    assert figures(page) == (heads, rows)
    expect(page.locator(".log-news")).to_contain_text("Scoring: Ann cancelled")
    assert not page.js_errors, page.js_errors


# -- The Game: each hand and the draw pile, not only a total --------------------------------
def test_the_game_end_shows_each_hand_and_the_draw_pile(server, browser):
    srv = ws_server(server)
    ann = Client(srv, "Ann")
    table = ann.new_table("the-game", ["me", "greedy"])
    last = play([ann], table["id"])
    view = last["view"]
    page = as_person(browser, server, ann)
    page.goto(f"/t/{table['id']}")
    expect(page.get_by_test_id("results")).to_be_visible()
    heads, rows = figures(page)
    assert heads == ["player", "cards in hand"]  # a team: no ranks
    assert [r[1] for r in rows] == [str(n) for n in view["hand_sizes"]]
    assert rows[0][0] == "Ann" and rows[1][0].startswith("Greedy")
    table_figures = page.get_by_test_id("table-figures")
    expect(table_figures).to_contain_text(f"draw pile{view['draw_pile']}")
    expect(table_figures).to_contain_text(f"cards left{view['result']['cards_left']}")
    expect(page.get_by_test_id("result-lines")).to_have_count(0)
    if view["result"].get("stuck_seat") is not None:
        expect(page.get_by_test_id("results")).to_contain_text("could not play")
    shots(page, "the-game-end")
    page.goto(f"/t/{table['id']}/replay")
    # the steps known (the first step drawn) before "last" can go to the end
    expect(page.get_by_test_id("step")).to_have_text(re.compile(r"Step 0 of [1-9]"))
    page.click("#last")
    expect(page.get_by_test_id("results")).to_be_visible()
    assert figures(page) == (heads, rows)
    assert not page.js_errors, page.js_errors


# -- Doublets: on the foundation and left --------------------------------------------------
def test_doublets_end_shows_the_foundation_and_what_is_left(server, browser):
    srv = ws_server(server)
    dora = Client(srv, "Dora")
    # a deal played to its end: one the greedy line wins (a stuck deal stays open for undo)
    table = dora.post(
        "/api/tables", {"game": "doublets", "seats": ["me"], "seed": winning_deal()[0]}
    )
    last = play([dora], table["id"])
    on = last["view"]["result"]["foundation"]
    page = as_person(browser, server, dora)
    page.goto(f"/t/{table['id']}")
    expect(page.get_by_test_id("results")).to_be_visible()
    table_figures = page.get_by_test_id("table-figures")
    assert table_figures.locator("dt").all_inner_texts() == ["on the foundation", "left"]
    assert table_figures.locator("dd").all_inner_texts() == [str(on), str(48 - on)]
    expect(page.get_by_test_id("results").get_by_test_id("figures")).to_have_count(0)
    expect(page.get_by_test_id("result-lines")).to_have_count(0)
    shots(page, "doublets-end")
    assert not page.js_errors, page.js_errors
