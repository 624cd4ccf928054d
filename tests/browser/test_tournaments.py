"""In Chromium: a person creates a tournament from its page, another finds it in the lobby and
enters, the round's table is offered on the tournament's page as soon as it is paired, they
play it, and both see the standings and the round's replay (issue #28)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

import websockets  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

from browser.conftest import reader  # noqa: E402
from browser.test_browser import TIMEOUT, screenshot, serving  # noqa: E402
from helpers import play_with_greedy  # noqa: E402
from server.conftest import Socket  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def token(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "cardtable_token")


def play_both(base: str, table_id: str, tokens: list[str]) -> None:
    """Both seats played to the end with the greedy policy, each through its person's own
    socket (``tokens``; Slide's reveal is simultaneous: both at once)."""

    async def one(page_token: str) -> None:
        url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={page_token}"
        async with websockets.connect(url) as ws:
            state = await play_with_greedy(Socket(ws), "slide", timeout=120)
            assert state["table"]["status"] == "over"

    async def run(tokens: list[str]) -> None:
        await asyncio.gather(*(one(t) for t in tokens))

    with ThreadPoolExecutor(1) as pool:  # (Playwright's sync API holds this thread's loop)
        pool.submit(asyncio.run, run(tokens)).result()


def finished_tournament(page: Page, base: str, name: str = "Cup", other_name: str = "Opal") -> str:
    """A one-round Slide tournament ``name`` of the page's person and ``other_name``, played to
    its end; its id (for the pages' checks: axe, every word translated)."""
    import time

    import httpx

    other = httpx.Client(base_url=base, timeout=10)
    other.post("/api/me", json={"name": other_name}).raise_for_status()
    made = page.request.post(
        "/api/tournaments",
        data={"name": name, "game": "slide", "table_size": 2, "rounds": 1, "starts_in": 600},
    ).json()
    assert page.request.post(f"/api/tournaments/{made['id']}/enter", data={}).ok
    other.post(f"/api/tournaments/{made['id']}/enter", json={}).raise_for_status()
    assert page.request.post(f"/api/tournaments/{made['id']}/start", data={}).ok
    deadline = time.monotonic() + 30
    while not (info := page.request.get(f"/api/tournaments/{made['id']}").json())["round"]:
        assert time.monotonic() < deadline, info
        time.sleep(0.2)
    table_id = info["round_list"][0]["tables"][0]["table_id"]
    play_both(base, table_id, [token(page), other.cookies["cardtable_token"]])
    while page.request.get(f"/api/tournaments/{made['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline + 60
        time.sleep(0.2)
    return str(made["id"])


def test_a_person_enters_plays_a_round_and_sees_the_standings(server, browser):
    ann = reader(browser, server, "en", "Ann", TIMEOUT)
    bob = reader(browser, server, "en", "Bob", TIMEOUT)
    ann.goto("/")
    ann.get_by_test_id("tournaments-link").first.click()
    ann.wait_for_url("**/tournaments")
    ann.get_by_test_id("tournament-name").fill("Friday Slide")
    ann.select_option("[data-testid=tournament-game]", "slide")
    ann.select_option("[data-testid=tournament-size]", "2")
    ann.select_option("[data-testid=tournament-rounds]", "1")
    ann.get_by_test_id("create-tournament").click()
    ann.wait_for_url("**/tournaments/*")
    expect(ann.get_by_test_id("tournament-title")).to_have_text("Friday Slide")
    ann.get_by_test_id("enter").click()
    expect(ann.get_by_test_id("withdraw")).to_be_visible()
    # Bob finds it in the lobby, opens it and enters
    bob.goto("/")
    row = bob.get_by_test_id("lobby-tournaments").get_by_role("link", name="Friday Slide")
    row.click()
    bob.wait_for_url("**/tournaments/*")
    bob.get_by_test_id("enter").click()
    expect(bob.get_by_test_id("standings").get_by_test_id("standing")).to_have_count(2)
    bob.goto("/tournaments")
    expect(
        bob.get_by_test_id("tournament-row").get_by_role("link", name="Friday Slide")
    ).to_be_visible()
    screenshot(bob, "tournaments.png")
    bob.go_back()
    # Ann starts it now: the round is paired and each page offers its table, unasked
    ann.get_by_test_id("start-now").click()
    for page in (ann, bob):
        expect(page.get_by_test_id("play-next")).to_be_visible(timeout=20_000)
    table_id = bob.get_by_test_id("play-next").get_attribute("href").split("/t/")[1]
    bob.get_by_test_id("play-next").click()
    bob.wait_for_url(f"**/t/{table_id}")
    expect(bob.locator("[data-seat='0'], [data-seat='1']").first).to_be_visible()
    play_both(server, table_id, [token(ann), token(bob)])
    # the tournament is over: standings and the round's replay, on Ann's page as it was left
    expect(ann.locator("#facts")).to_contain_text("over", timeout=20_000)
    lines = ann.get_by_test_id("standing")
    expect(lines).to_have_count(2)
    points = sorted(lines.get_by_test_id("points").all_inner_texts())
    assert points in (["0", "1"], ["0.5", "0.5"]), points
    expect(ann.get_by_test_id("round-table").get_by_role("link", name="Replay")).to_be_visible()
    screenshot(ann, "tournament.png")
    ann.get_by_test_id("round-table").get_by_role("link", name="Replay").click()
    ann.wait_for_url(f"**/t/{table_id}/replay")
    # and Bob's My games lists it
    bob.goto("/me")
    expect(bob.get_by_test_id("my-tournaments")).to_contain_text("Friday Slide")
    assert not ann.js_errors and not bob.js_errors


def test_a_person_plays_the_deal_of_the_day_from_the_lobby(server, browser):
    """The server opens Doublets' deal of the day by itself: a person finds it in the lobby,
    enters, plays its one deal and reads their line of the day's standings."""
    cy = reader(browser, server, "en", "Cy", TIMEOUT)
    cy.goto("/")
    daily = cy.get_by_test_id("lobby-tournaments").get_by_role(
        "link", name=re.compile(r"^Doublets: deal of the day, ")
    )
    expect(daily).to_be_visible(timeout=20_000)
    daily.click()
    cy.wait_for_url("**/tournaments/*")
    expect(cy.locator("#facts")).to_contain_text("duplicate challenge, 1 deal")
    cy.get_by_test_id("enter").click()
    expect(cy.get_by_test_id("play-next")).to_be_visible(timeout=20_000)
    table_id = cy.get_by_test_id("play-next").get_attribute("href").split("/t/")[1]
    cy.get_by_test_id("play-next").click()
    cy.wait_for_url(f"**/t/{table_id}")
    expect(cy.get_by_role("button", name=re.compile(r"^stock, "))).to_be_visible()
    # no undo, hint, "still winnable?" nor a second try at a challenge's deal (an ordinary
    # solitaire shows each of these as a [data-tool] button)
    expect(cy.locator("[data-tool]")).to_have_count(0)
    play_alone(server, table_id, token(cy))
    cy.go_back()
    expect(cy.get_by_test_id("next-table")).to_contain_text("You have played every deal")
    line = cy.get_by_test_id("standing").filter(has_text="Cy")
    expect(line).to_contain_text("you")
    assert not cy.js_errors


def play_alone(base: str, table_id: str, player_token: str) -> None:
    """A solitaire played with the greedy policy through the person's socket; one left with
    no move is resigned (a challenge's deal has no undo)."""
    import httpx

    async def run() -> None:
        url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={player_token}"
        async with websockets.connect(url) as ws:
            await play_with_greedy(Socket(ws), "doublets", timeout=120)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
    http = httpx.Client(base_url=base, cookies={"cardtable_token": player_token})
    if http.get(f"/api/tables/{table_id}").json()["status"] != "over":
        http.post(f"/api/tables/{table_id}/resign", json={}).raise_for_status()


@pytest.mark.parametrize(
    ("fmt", "game", "facts"),
    [
        ("arena", "slide", "arena of 30 min"),
        ("duplicate", "the-game", "duplicate challenge, 3 deals"),
    ],
)
def test_an_arena_and_a_duplicate_challenge_are_made_from_the_form(
    server, browser, fmt, game, facts
):
    """The form's formats: each shows its own choices (an arena its length and streaks, a
    challenge its deals, the games played alone or together, players per entry)."""
    dee = reader(browser, server, "en", "Dee", TIMEOUT)
    dee.goto("/tournaments")
    dee.get_by_test_id("tournament-name").fill(f"Dee's {fmt}")
    dee.select_option("[data-testid=tournament-format]", fmt)
    expect(dee.get_by_test_id("tournament-rounds")).to_be_hidden()
    expect(dee.get_by_test_id("tournament-minutes")).to_be_visible()
    games = dee.locator("[data-testid=tournament-game] option").evaluate_all(
        "(options) => options.map((o) => o.value)"
    )
    assert game in games and ("slide" in games) == (fmt == "arena"), games
    dee.select_option("[data-testid=tournament-game]", game)
    if fmt == "duplicate":
        expect(dee.get_by_test_id("tournament-deals")).to_be_visible()
        expect(dee.locator("#clock-choice")).to_be_hidden()  # (alone: no clock)
        dee.select_option("[data-testid=tournament-size]", "1")
    dee.get_by_test_id("create-tournament").click()
    dee.wait_for_url("**/tournaments/*")
    expect(dee.locator("#facts")).to_contain_text(facts)
    dee.get_by_test_id("enter").click()
    expect(dee.get_by_test_id("standing")).to_have_count(1)
    assert not dee.js_errors
