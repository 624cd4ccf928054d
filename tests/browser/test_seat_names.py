"""A seat that goes to a bot keeps its person, in Chromium (issue #24): after a resignation
and after a clock ran out, the players list and the game log say "Bob — played by Greedy",
and the Greedy seated from the start is never renamed ("Greedy 3"); a person who closed
their page is shown away, with when their seat may go to a bot, and the creator's "Hand to
bot" is enabled only from then; on a phone Slide's grid tabs show "Bob (Greedy)" whole.
Writes docs/screenshots/table-clock-out.png, table-clock-out-phone.png, table-away.png and
slide-tabs-phone.png with CARDTABLE_SCREENSHOTS=1.
"""

from __future__ import annotations

import re

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium "
        "(apt-get install chromium); no browser is downloaded",
        allow_module_level=True,
    )

from playwright.sync_api import Page, expect  # noqa: E402

from browser.test_browser import person, screenshot, serving, settled  # noqa: E402

#: the server's seat grace (--seat-grace): long enough to see the countdown on a busy machine
GRACE = 8
#: a move's time on the clocked table: Bob lets it run out
MOVE = 10
#: ms to wait for what the server does on its own (a clock running out, a bot's move)
SLOW = 40_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    args = ("--min-clock", "1", "--seat-grace", str(GRACE))
    with serving(tmp_path_factory.mktemp("data"), log, args) as base:
        yield base


def seat_name(page: Page, seat: int):
    return page.locator(f'[aria-label=players] [data-seat="{seat}"] .name')


def three_at_a_table(browser, server: str, clock: dict | None = None) -> tuple[Page, Page, str]:
    """Ann's Slide table: Ann, Bob (joined) and a Greedy bot seated at its creation; both
    people's pages open on it."""
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    made = ann.request.post(
        "/api/tables", data={"game": "slide", "seats": ["me", "open", "greedy"], "clock": clock}
    )
    table = made.json()["id"]
    assert bob.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    for page in (ann, bob):
        page.goto(f"/t/{table}")
        settled(page)
    expect(seat_name(ann, 2)).to_have_text("Greedy (bot)")
    return ann, bob, table


def bob_kept(ann: Page) -> None:
    """Bob's seat, now a bot's, still says his name, in the players list and in the log of
    the bot's moves; the Greedy seated from the start keeps its name."""
    expect(seat_name(ann, 1)).to_have_text("Bob — played by Greedy", timeout=SLOW)
    expect(seat_name(ann, 2)).to_have_text("Greedy (bot)")
    line = ann.locator('[data-testid=log] [data-seat="1"]').last
    expect(line).to_contain_text(re.compile(r"\d+\. Bob — played by Greedy "), timeout=SLOW)
    expect(ann.locator("#side")).not_to_contain_text("Greedy 3")


def test_a_resigned_seat_keeps_its_persons_name(server, browser):
    ann, bob, _table = three_at_a_table(browser, server)
    bob.once("dialog", lambda d: d.accept())
    bob.get_by_test_id("resign").click()
    bob.wait_for_url("**/me")
    bob_kept(ann)
    assert not ann.js_errors and not bob.js_errors


def tab_fits(page: Page, seat: int, width: int, tries: int = 20) -> bool:
    """Whether seat ``seat``'s tab shows its words whole and ends inside ``width`` px: read
    in one go in the page, from a tab in the page (a late state message may draw the tabs
    again between two reads, or while one runs: then it is read again)."""
    box = page.locator(f"[data-tab='{seat}']")
    for _ in range(tries):
        expect(box).to_be_visible()
        fits = box.evaluate(
            f"""b => !b.isConnected ? null : b.scrollWidth <= b.clientWidth
                && b.scrollHeight <= b.clientHeight
                && b.getBoundingClientRect().right <= {width}"""
        )
        if fits is not None:
            return bool(fits)
        page.wait_for_timeout(100)
    raise AssertionError(f"seat {seat}'s tab was drawn again at every read")


def test_a_phone_tab_shows_a_bots_seat_whole(server, browser):
    """At 390 px Slide's grid tabs name Bob's seat, now a bot's, whole ("Bob (Greedy)"),
    not cut ("Bob — play…"); its title keeps the players list's words."""
    ann, bob, _table = three_at_a_table(browser, server)
    bob.once("dialog", lambda d: d.accept())
    bob.get_by_test_id("resign").click()
    bob.wait_for_url("**/me")
    expect(seat_name(ann, 1)).to_have_text("Bob — played by Greedy", timeout=SLOW)
    ann.set_viewport_size({"width": 390, "height": 844})
    tab = ann.locator("[data-tab='1']")
    expect(tab).to_be_visible()
    expect(tab).to_contain_text("Bob (Greedy)")
    expect(tab).to_have_attribute("title", "Bob — played by Greedy")
    expect(ann.get_by_role("tab", name=re.compile(r"^(▶ )?Bob \(Greedy\)"))).to_be_visible()
    for seat in range(3):  # every tab's words inside it: nothing cut, nothing hidden
        assert tab_fits(ann, seat, 390), seat
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(ann, "slide-tabs-phone.png")
    assert not ann.js_errors and not bob.js_errors


def test_a_seat_whose_clock_ran_out_keeps_its_persons_name(server, browser):
    ann, bob, _table = three_at_a_table(browser, server, {"mode": "move", "seconds": MOVE})
    settled(ann)
    ann.locator("[data-action]").first.click()  # Ann chooses; Bob lets his time run out
    bob_kept(ann)
    expect(ann.locator(".notices")).to_contain_text("Bob ran out of time")
    expect(seat_name(bob, 1)).to_have_text("Bob — played by Greedy")
    settled(ann)
    screenshot(ann, "table-clock-out.png")
    ann.set_viewport_size({"width": 390, "height": 844})
    # on a phone the players list comes below the board: scrolled to it, as a reader would
    ann.locator("[aria-label=players]").scroll_into_view_if_needed()
    expect(seat_name(ann, 1)).to_be_in_viewport()
    screenshot(ann, "table-clock-out-phone.png")
    assert not ann.js_errors and not bob.js_errors


def test_hand_to_bot_is_offered_when_the_server_would_take_it(server, browser):
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    table = ann.request.post("/api/tables", data={"game": "slide", "seats": ["me", "open"]}).json()[
        "id"
    ]
    assert bob.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    ann.goto(f"/t/{table}")
    bob.goto(f"/t/{table}")
    settled(bob)
    expect(ann.locator('[aria-label=players] [data-seat="1"] .dot.on')).to_have_count(1)
    bob.close()  # Bob closes his tab
    button = ann.get_by_test_id("hand-to-bot")
    when = ann.get_by_test_id("hand-over-when")
    expect(when).to_have_text(re.compile(r"^Away: can be handed to a bot in \d+ s$"))
    expect(button).to_be_disabled()  # the server would refuse it: the grace period
    screenshot(ann, "table-away.png")
    # the countdown runs, and the button comes when the server takes it, not before
    expect(when).to_have_text("Away: can be handed to a bot now", timeout=SLOW)
    expect(button).to_be_enabled()
    button.click()
    expect(seat_name(ann, 1)).to_have_text("Bob — played by Greedy", timeout=SLOW)
    expect(ann.get_by_test_id("message")).to_have_count(0)  # (no refusal: no grace left)
    assert not ann.js_errors
