"""The table lifecycle in the browser (issue #11), clicked as a person would: "New deal" in
Doublets gives up the deal under way (a lost deal in the statistics, listed on My games with
its replay), Leave takes a person away from a table, and the lobby shows ages and no dead
tables; the last person leaving a shared game to bots ends it with the same place on every
page, and My games tells a resigned game (to watch) from a seat the clock took (to take
back) (issue #24). Writes docs/screenshots/my-games.png, my-games-resigned.png,
my-games-away.png and table-resigned.png with CARDTABLE_SCREENSHOTS=1.
"""

from __future__ import annotations

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium "
        "(apt-get install chromium); no browser is downloaded",
        allow_module_level=True,
    )

from playwright.sync_api import expect  # noqa: E402

from browser.test_browser import person, screenshot, serving, settled  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    # clocks as short as a second: a seat the clock gives to a bot within the test
    with serving(tmp_path_factory.mktemp("data"), log, ("--min-clock", "1")) as base:
        yield base


def test_new_deals_are_lost_deals_listed_on_my_games(server, browser):
    page = person(browser, server, "Dora")
    page.goto("/")
    page.get_by_test_id("play-alone").click()
    page.wait_for_url("**/t/*")
    settled(page)
    expect(page.get_by_test_id("stats")).to_contain_text("played0")
    seen = [page.url]
    for n in range(1, 6):
        page.click("[data-key=new-deal]")
        # the deal under way counts as lost: the page says so first (issue #24)
        expect(page.get_by_role("alertdialog")).to_contain_text("counts as a lost game")
        page.get_by_test_id("new-deal-yes").click()
        page.wait_for_url(lambda url, seen=list(seen): url not in seen and "/t/" in url)
        seen.append(page.url)
        settled(page)
        # each deal given up is a lost deal: played goes up, won stays 0
        expect(page.get_by_test_id("stats")).to_contain_text(f"played{n}")
        expect(page.get_by_test_id("stats")).to_contain_text("won0 (0%)")
    # the deal given up first is over: no moves, no undo, and its page says why
    page.goto(seen[0])
    settled(page)
    expect(page.get_by_test_id("status")).to_contain_text("Abandoned")
    for key in ("undo", "redo", "new-deal"):
        expect(page.locator(f"[data-key={key}]")).to_have_count(0 if key != "new-deal" else 1)
    expect(page.locator("[data-action]")).to_have_count(0)
    # a Slide table waiting for a friend: unfinished, but nobody's turn yet
    made = page.request.post("/api/tables", data={"game": "slide", "seats": ["me", "open"]})
    assert made.ok
    # My games, from the header: the deal under way first (your turn), the five given up
    page.get_by_test_id("my-games-link").click()
    page.wait_for_url("**/me")
    waiting = page.get_by_test_id("unfinished").get_by_test_id("unfinished-game")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("waiting for players")
    turn = page.get_by_test_id("your-turn")
    expect(turn.get_by_test_id("unfinished-game")).to_have_count(1)
    expect(turn).to_contain_text("your turn")
    finished = page.get_by_test_id("finished").get_by_test_id("finished-game")
    expect(finished).to_have_count(5)
    expect(finished.first).to_contain_text("Abandoned")
    expect(finished.first).to_contain_text("just now")
    screenshot(page, "my-games.png")
    phone = person(browser, server, None, width=390)
    phone.context.add_cookies(page.context.cookies())
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto("/me")
    expect(phone.get_by_test_id("finished-game")).to_have_count(5)
    screenshot(phone, "my-games-phone.png")
    # Resume goes back to the deal under way; Replay shows a finished one
    turn.get_by_test_id("resume").click()
    page.wait_for_url(seen[-1])
    settled(page)
    expect(page.get_by_test_id("status")).not_to_contain_text("Game over")
    page.go_back()
    page.get_by_test_id("finished").get_by_test_id("replay").first.click()
    page.wait_for_url("**/replay")
    expect(page.locator("body")).not_to_contain_text("not over")
    assert not page.js_errors and not phone.js_errors


def test_leave_a_table_and_the_lobby_shows_ages_not_dead_tables(server, browser):
    ann = person(browser, server, "Ann")
    made = ann.request.post("/api/tables", data={"game": "slide", "seats": ["me", "open"]})
    waiting = made.json()["id"]
    made = ann.request.post("/api/tables", data={"game": "slide", "seats": ["me", "greedy"]})
    playing = made.json()["id"]
    ann.goto("/")
    row = ann.locator(f'tr[data-table="{waiting}"]')
    expect(row.get_by_test_id("table-age")).to_have_text(" just now")
    expect(ann.locator(f'tr[data-table="{playing}"]')).to_have_count(1)
    # leaving a started game against a bot is resigning it: the table closes, a rated loss
    ann.goto(f"/t/{playing}")
    settled(ann)
    ann.once("dialog", lambda d: d.accept())
    ann.get_by_test_id("leave").click()
    ann.wait_for_url(f"**/t/{playing}")
    settled(ann)
    expect(ann.get_by_test_id("status")).to_contain_text("Resigned")
    expect(ann.get_by_test_id("leave")).to_have_count(0)
    # the last person leaving an open table closes it: the lobby no longer lists either
    ann.goto(f"/t/{waiting}")
    settled(ann)
    ann.once("dialog", lambda d: d.accept())
    ann.get_by_test_id("leave").click()
    # the page reloads itself at the same address: wait for the closed table, not the URL
    expect(ann.get_by_test_id("status")).to_contain_text("Abandoned")
    settled(ann)
    ann.goto("/")
    expect(ann.locator("#tables tr")).not_to_have_count(0)  # the list has been drawn
    for gone in (waiting, playing):
        expect(ann.locator(f'tr[data-table="{gone}"]')).to_have_count(0)
    ann.goto("/me")
    games = ann.get_by_test_id("finished").get_by_test_id("finished-game")
    expect(games).to_have_count(2)
    expect(games.filter(has_text="Resigned")).to_contain_text("You came 2nd of 2")
    assert not ann.js_errors


def test_the_last_person_leaving_to_bots_and_my_games_after_resigning(server, browser):
    """Issue #24: Bob resigns a Slide game Ann plays on with a bot: his My games lists it
    to watch, never to "Resume", with no "null". Then Ann, the last person, leaves: the
    confirmation, her table page (results, places, replay, a board no longer waiting) and
    her My games say the same place. Writes docs/screenshots/table-resigned.png and
    my-games-resigned.png with CARDTABLE_SCREENSHOTS=1."""
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    made = ann.request.post(
        "/api/tables", data={"game": "slide", "seats": ["me", "open", "greedy"]}
    )
    table = made.json()["id"]
    assert bob.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    ann.goto(f"/t/{table}")
    settled(ann)
    assert bob.request.post(f"/api/tables/{table}/resign", data={}).json()["outcome"] == "bot"
    bob.goto("/me")
    resigned = bob.get_by_test_id("resigned").get_by_test_id("unfinished-game")
    expect(resigned).to_have_count(1)
    expect(resigned).to_contain_text("You resigned")
    expect(resigned.get_by_test_id("watch")).to_have_text("Watch")
    expect(bob.get_by_test_id("resume")).to_have_count(0)
    expect(bob.get_by_test_id("bot-accounts")).to_be_visible()
    expect(bob.locator("main")).not_to_contain_text("null")  # the bot accounts too
    screenshot(bob, "my-games-resigned.png")
    # Ann is the last person: leaving ends the game, and the confirmation says how
    asked: list[str] = []

    def accept(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    ann.once("dialog", accept)
    ann.get_by_test_id("leave").click()
    expect(ann.get_by_test_id("results")).to_be_visible()
    assert "the bots share first place, you rank below them" in asked[0], asked
    assert "Anyone who left before you ranks below you." in asked[0], asked  # Bob: 3rd
    settled(ann)
    expect(ann.get_by_test_id("status")).to_contain_text("Resigned")
    expect(ann.get_by_test_id("verdict")).to_have_text("You came 2nd of 3.")
    lines = ann.get_by_test_id("result-lines")
    expect(lines).to_contain_text("#2 Ann (resigned)")
    expect(lines).to_contain_text("#3 Bob (resigned)")
    # the seat Bob resigned keeps his name, and the seated Greedy its own (#24)
    players = ann.locator("[aria-label=players] .name")
    expect(players).to_have_text(["Ann (you)", "Bob — played by Greedy", "Greedy (bot)"])
    expect(ann.get_by_test_id("replay-link")).to_be_visible()
    for waiting in ("choosing…", "Waiting…", "Waiting for"):
        expect(ann.locator("main")).not_to_contain_text(waiting)
    screenshot(ann, "table-resigned.png")
    ann.goto("/me")
    finished = ann.get_by_test_id("finished").get_by_test_id("finished-game")
    expect(finished.filter(has_text="Resigned")).to_contain_text("You came 2nd of 3")
    bob.goto("/me")  # the game is over for everyone now: Bob's place among the finished
    expect(bob.get_by_test_id("finished-game")).to_contain_text("You came 3rd of 3")
    ann.get_by_test_id("finished").get_by_test_id("replay").first.click()
    ann.wait_for_url("**/replay")
    expect(ann.locator("body")).not_to_contain_text("not over")
    expect(ann.locator("#step")).to_contain_text("Step 0 of")
    if ann.locator("#last").is_enabled():  # (no step at all if no bot had chosen yet)
        ann.click("#last")  # the replay ends as the table did: over, nobody choosing
    expect(ann.locator("#board")).to_contain_text("The game is over.")
    expect(ann.locator("#board")).not_to_contain_text("choosing…")
    assert not ann.js_errors and not bob.js_errors


def test_my_games_offers_a_seat_the_clock_took_back(server, browser):
    """Issue #24: Bob lets his time run out; My games keeps the table his to play, with
    "Take your seat back", which seats him again. Writes docs/screenshots/my-games-away.png
    with CARDTABLE_SCREENSHOTS=1."""
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    made = ann.request.post(
        "/api/tables",
        data={"game": "slide", "seats": ["me", "open"], "clock": {"mode": "move", "seconds": 8}},
    )
    table = made.json()["id"]
    assert bob.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    ann.goto(f"/t/{table}")
    settled(ann)
    ann.locator("[data-action]").first.click()  # Ann chooses; Bob's time runs out
    players = '[aria-label=players] [data-seat="1"] .name'
    expect(ann.locator(players)).to_contain_text("Greedy", timeout=30_000)
    bob.goto("/me")
    row = bob.get_by_test_id("your-turn").get_by_test_id("unfinished-game")
    expect(row).to_contain_text("a bot plays your seat")
    expect(bob.get_by_test_id("resume")).to_have_count(0)
    expect(bob.get_by_test_id("bot-accounts")).to_be_visible()
    expect(bob.locator("main")).not_to_contain_text("null")
    screenshot(bob, "my-games-away.png")
    row.get_by_test_id("take-back").click()
    bob.wait_for_url(f"**/t/{table}")
    # (his time starts afresh: 8 s to see it his again)
    expect(bob.locator(players)).to_contain_text("Bob (you)")
    assert not ann.js_errors and not bob.js_errors
