"""Everyone able to play (WCAG 2.2 AA), checked in Debian's Chromium against a real server.

axe-core (from the npm registry: ``npm ci``) runs on every page and on each game's table
mid-game and at its end, in each language of ``LANGS`` (the ``lang`` cookie): no violation
of the WCAG 2.0, 2.1 and 2.2 A and AA rules. Set ``CARDTABLE_TEST_NEED_JS=1`` (CI does) to
fail rather than skip where axe-core is missing. Then what axe cannot judge alone: the game
log as a live region, the cards' names, numbers and shapes beside colours, 24 px targets,
forced colours and reduced motion. docs/accessibility.md says what the pages promise;
test_keyboard.py plays each game with the keyboard.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
if not AXE.exists():
    if os.environ.get("CARDTABLE_TEST_NEED_JS"):
        raise RuntimeError("CARDTABLE_TEST_NEED_JS is set but axe-core is missing: run npm ci")
    pytest.skip("the accessibility checks need axe-core: run npm ci", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from browser.conftest import reader  # noqa: E402
from browser.test_browser import (  # noqa: E402
    TIMEOUT,
    finished_bots_table,
    serving,
    settled,
    winning_deal,
)
from helpers import play_with_greedy  # noqa: E402
from server.conftest import Socket  # noqa: E402

#: the languages every page is checked in (the ``lang`` cookie chooses one)
LANGS = ["en", "cs"]
#: axe's rules for WCAG 2.0, 2.1 and 2.2, levels A and AA
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
#: the seats of each game's table: the page's person, and a bot where the game has opponents
SEATS = {"slide": ["me", "greedy"], "the-game": ["me", "greedy"], "doublets": ["me"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("log") / "server.log"
    # every check is a new person from one address: no limit on new players here
    args = ("--new-players-per-minute", "0")
    with serving(tmp_path_factory.mktemp("data"), log, args) as base:
        yield base


def person(browser, base: str, lang: str, name: str = "Ada", width: int = 1280, **kw) -> Page:
    """A named person's page in its own context, in ``lang`` (its cookie). The page's
    Content-Security-Policy is bypassed only so that axe's script can be injected."""
    viewport = {"width": width, "height": 900}
    return reader(browser, base, lang, name, TIMEOUT, viewport=viewport, bypass_csp=True, **kw)


def new_table(page: Page, game: str, seed: int | None = None) -> str:
    body = {"game": game, "seats": SEATS[game], "seed": seed}
    answer = page.request.post("/api/tables", data=body)
    assert answer.ok, answer.text()
    return answer.json()["id"]


@cache
def won_deal() -> int:
    """A Doublets deal the greedy policy wins (so that its table ends)."""
    return winning_deal()[0]


def token(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "cardtable_token")


def play_to_end(page: Page, base: str, table_id: str, game: str, stuck_ok: bool = False) -> None:
    """Play the page's person's seat to the end with the greedy policy, through a websocket
    of its own (the person's token); the page is opened afterwards. ``stuck_ok``: a
    solitaire left with no move is given up (resigned), which finishes its table."""
    import websockets

    url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={token(page)}"

    async def run() -> None:
        async with websockets.connect(url) as ws:
            state = await play_with_greedy(Socket(ws), game, timeout=120)
            assert state["table"]["status"] == "over" or stuck_ok, state["table"]

    # (Playwright's synchronous API runs an event loop in this thread)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
    if page.request.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert page.request.post(f"/api/tables/{table_id}/resign", data={}).ok


# -- the pages: each opens one in ``page`` and waits until it is drawn ------------------------
def lobby(page: Page, base: str) -> None:
    page.goto("/")
    expect(page.locator("#create-form [name=game] option").first).to_be_attached()
    expect(page.get_by_test_id("me-name")).to_be_attached()  # (behind the menu on a phone)


def welcome(page: Page, base: str) -> None:
    """The lobby as a newcomer sees it: a form asks for a name."""
    page.context.clear_cookies(name="cardtable_token")
    page.goto("/")
    expect(page.locator("#welcome input")).to_be_visible()


def name_dialog(page: Page, base: str) -> None:
    """The dialog that renames the person (modal: the rest of the page is inert)."""
    page.goto("/")
    page.locator(".topbar .who button").first.dispatch_event("click")  # (a phone folds it)
    expect(page.locator("dialog[open] input[name=name]")).to_be_focused()


def restart_question(page: Page, base: str) -> None:
    """The question before a deal under way is given up (an alert dialog)."""
    page.goto(f"/t/{new_table(page, 'doublets')}")
    settled(page)
    page.locator("[data-key=restart]").click()
    expect(page.get_by_test_id("restart")).to_be_visible()


def no_such_page(page: Page, base: str) -> None:
    page.goto("/no/such/page")
    expect(page.get_by_test_id("not-found")).to_be_visible()


def my_games(page: Page, base: str) -> None:
    finished = new_table(page, "doublets", 4242)
    assert page.request.post(f"/api/tables/{finished}/resign", data={}).ok
    new_table(page, "slide")
    page.goto("/me")
    expect(page.get_by_test_id("finished-game")).to_have_count(1)
    expect(page.get_by_test_id("bot-accounts")).to_be_visible()


def leaderboard(page: Page, base: str) -> None:
    finished_bots_table(page)
    page.goto("/leaderboard")
    expect(page.locator("[data-game=slide] tbody tr").first).to_be_visible()


def rules(page: Page, base: str) -> None:
    page.goto("/rules/slide")
    expect(page.get_by_test_id("rules")).to_be_visible()


def replay(page: Page, base: str) -> None:
    table_id = finished_bots_table(page)
    page.goto(f"/t/{table_id}/replay#move=5")
    expect(page.get_by_test_id("step")).to_contain_text("5")


def replay_review(page: Page, base: str) -> None:
    """A replay with its review: the summary, the chart, the marks, the verdict (a solitaire's
    "Try again from here" too), at a marked move with its better move drawn."""
    table_id = new_table(page, "doublets", 4)  # (a deal the greedy play loses: a blunder)
    play_to_end(page, base, table_id, "doublets", stuck_ok=True)
    assert page.request.post(f"/api/tables/{table_id}/review", data={"depth": "quick"}).ok
    deadline = time.monotonic() + 120
    while page.request.get(f"/api/tables/{table_id}/review").json()["status"] != "done":
        assert time.monotonic() < deadline, "the review was not made"
        time.sleep(0.3)
    page.goto(f"/t/{table_id}/replay")
    expect(page.get_by_test_id("review-chart")).to_be_visible()
    page.get_by_test_id("review-chart").locator("circle.blunder").first.click()
    page.get_by_role("button", name=re.compile("better move|lepší tah")).click()
    expect(page.locator("#board .better-move")).to_have_count(1)
    page.get_by_test_id("review-text").locator("summary").click()


def table(game: str, end: bool) -> Callable[[Page, str], None]:
    def open_table(page: Page, base: str) -> None:
        seed = won_deal() if game == "doublets" and end else None
        table_id = new_table(page, game, seed)
        if end:
            play_to_end(page, base, table_id, game)
        page.goto(f"/t/{table_id}")
        settled(page)
        if end:
            expect(page.get_by_test_id("results")).to_be_visible()
        else:
            # (in any language: the page marks its person's turn)
            page.wait_for_function("() => document.body.dataset.myTurn === '1'")

    return open_table


def tutorial(page: Page, base: str) -> None:
    """A tutorial's table (issue #27): the tutor beside the board, its move marked."""
    answer = page.request.post("/api/tutorials/the-game", data={})
    assert answer.ok, answer.text()
    page.goto(f"/t/{answer.json()['id']}")
    expect(page.get_by_test_id("tutor-play")).to_be_enabled()
    expect(page.locator(".suggested").first).to_be_visible()


# -- a table in the states that show more: a card picked, a hint, the keys -----------------------
def slide_push(page: Page, base: str) -> None:
    """Slide at the person's take, a centre card picked: the push arrows show."""
    page.goto(f"/t/{new_table(page, 'slide')}")
    settled(page)
    page.locator('[data-action^="reveal "]').first.click()
    page.wait_for_selector(".arrow, [data-actions]", timeout=60_000)
    settled(page)
    if not page.locator(".arrow").count():
        page.locator("[data-actions]").first.click()
    expect(page.locator(".arrow").first).to_be_visible()


def the_game_picked(page: Page, base: str) -> None:
    """The Game with a card of the hand picked: the piles that take it are marked."""
    table(game="the-game", end=False)(page, base)
    targets = page.locator(".pile-btn.target")
    for _ in range(3):
        # a state message that lands just after the click draws the board afresh, the pick
        # gone (seen once on a loaded CI machine): pick again then
        page.locator("[data-card][data-actions]").first.click()
        try:
            expect(targets.first).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            continue
    expect(targets.first).to_be_visible()


def doublets_help(page: Page, base: str) -> None:
    """Doublets with a hint shown and the keys unfolded."""
    table(game="doublets", end=False)(page, base)
    page.locator("[data-key=hint]").click()
    expect(page.get_by_test_id("prompt")).not_to_be_empty()
    page.get_by_test_id("keys-help").locator("summary").click()
    expect(page.get_by_test_id("keys-help").locator("dl")).to_be_visible()


def tournaments(page: Page, base: str) -> None:
    page.goto("/tournaments")
    expect(page.get_by_test_id("tournament-game").locator("option").first).to_be_attached()


def tournament(page: Page, base: str) -> None:
    """A finished tournament's page: its standings and its round."""
    from browser.test_tournaments import finished_tournament

    page.goto(f"/tournaments/{finished_tournament(page, base)}")
    expect(page.get_by_test_id("round-table")).to_have_count(1)


PAGES: dict[str, Callable[[Page, str], None]] = {
    "lobby": lobby,
    "welcome": welcome,
    "name-dialog": name_dialog,
    "no-such-page": no_such_page,
    "restart-question": restart_question,
    "my-games": my_games,
    "leaderboard": leaderboard,
    "rules": rules,
    "replay": replay,
    "replay-review": replay_review,
    **{
        f"{game}-{when}": table(game, when == "end")
        for game in SEATS
        for when in ("mid-game", "end")
    },
    "slide-push": slide_push,
    "the-game-picked": the_game_picked,
    "doublets-help": doublets_help,
    "tutorial": lambda page, base: tutorial(page, base),
    "tournaments": tournaments,
    "tournament": tournament,
}
#: the pages of a game's table
TABLES = [name for name in PAGES if name.startswith(tuple(SEATS))]


def axe(page: Page) -> list[str]:
    """axe's violations of the WCAG A and AA rules on the page as it is now: a line for each
    element."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))"
        ".violations.flatMap((v) => v.nodes.map((n) => "
        "`${v.id}: ${n.target.join(' ')}: ${n.html.slice(0, 160)}: ${n.failureSummary}`))",
        TAGS,
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_axe_violation(server, browser, name: str, width: int, lang: str) -> None:
    """Every page at a computer's width and a phone's, in every language."""
    page = person(browser, server, lang, width=width)
    PAGES[name](page, server)
    found = axe(page)
    assert not found, "\n".join(found)
    assert not page.js_errors
    page.context.close()


# -- what a screen reader hears ----------------------------------------------------------------
def test_the_log_is_a_live_region_that_lives_on(server, browser) -> None:
    """The game log is one ``role="log"`` region (polite, not atomic) for the page's life: a
    move adds its line to the same region, which is never replaced."""
    page = person(browser, server, "en")
    table(game="the-game", end=False)(page, server)
    log = page.get_by_role("log", name="game log")
    expect(log).to_have_attribute("aria-live", "polite")
    expect(log).to_have_attribute("aria-atomic", "false")
    page.evaluate("() => { window.__log = document.querySelector('[role=log]'); }")
    lines = log.locator("li").count()
    card = page.locator("[data-card][data-actions]").first
    card.click()
    page.click(f'[data-action="{card.get_attribute("data-actions").split("|")[0]}"]')
    expect(log.locator("li")).to_have_count(lines + 1)
    assert page.evaluate("() => document.querySelector('[role=log]') === window.__log")
    assert not page.js_errors


def test_cards_and_controls_have_names(server, browser) -> None:
    """Cards, face-down ones too, are named as a player says them; controls are labelled."""
    page = person(browser, server, "en")
    table(game="slide", end=False)(page, server)
    face_down = page.get_by_role("button", name=re.compile(r"^face-down card [a-d][1-4]$"))
    expect(face_down).to_have_count(16)  # the player's own grid, nothing revealed yet
    expect(page.get_by_role("img", name=re.compile(r"^face-down card "))).to_have_count(16)
    centre = page.get_by_role("group", name="centre cards").get_by_role("button")
    for name in centre.all():
        assert re.fullmatch(r"\d+, face up, in the centre", name.get_attribute("aria-label"))
    page = person(browser, server, "en", name="Bo")
    table(game="the-game", end=False)(page, server)
    hand = page.get_by_role("group", name="your hand").get_by_role("button")
    first = hand.first.get_attribute("data-card")
    expect(hand.first).to_have_accessible_name(re.compile(rf"^{first}, in your hand"))
    expect(page.get_by_role("button", name=re.compile(r"^pile up 1, top \d+"))).to_be_visible()
    expect(page.get_by_role("button", name="End turn")).to_be_visible()
    expect(page.get_by_role("toolbar", name="signals to the table")).to_be_visible()
    page = person(browser, server, "en", name="Cy")
    table(game="doublets", end=False)(page, server)
    expect(
        page.get_by_role("button", name=re.compile(r"^stock, \d+ cards face down"))
    ).to_be_visible()
    foundation = page.get_by_role("img", name=re.compile(r"^foundation: "))
    expect(foundation).to_have_accessible_name(re.compile(r"([AJQK], \w+|\d+) of \w+, 1 cards?$"))


# -- not by colour alone, targets, motion -----------------------------------------------------
def test_cards_carry_numbers_and_shapes_not_colour_alone(server, browser) -> None:
    """Slide's coloured cards show their number; The Game's piles say up or down in a shape
    (▲ ▼) and words, and its coloured cards show their number."""
    page = person(browser, server, "en")
    table(game="slide", end=False)(page, server)
    for card in page.locator(".centre .card").all():
        value = card.get_attribute("data-centre")
        assert card.inner_text() == value and f"s{value}" in card.get_attribute("class")
    page = person(browser, server, "en", name="Bo")
    table(game="the-game", end=False)(page, server)
    names = page.locator(".pile-name").all_inner_texts()
    assert names == ["▲ up 1", "▲ up 2", "▼ down 1", "▼ down 2"], names
    for card in page.locator(".tgc").all():
        assert card.inner_text().isdigit()


#: the buttons, links and fields smaller than 24 x 24 CSS px, but links inside running text
#: (WCAG 2.5.8's inline exception)
SMALL_TARGETS = """() => [...document.querySelectorAll(
    "button, a[href], input, select, textarea, summary, [role=button], [tabindex='0']")]
  .filter((e) => e.offsetParent !== null || getComputedStyle(e).position === "fixed")
  .filter((e) => {
    if (e.tagName === "A") {
      const block = e.parentElement.closest("p, li, dd, td");
      if (block && block.textContent.trim() !== e.textContent.trim()) return false; // inline
    }
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.width < 24 || r.height < 24);
  })
  .map((e) => `${Math.round(e.getBoundingClientRect().width)}x`
    + `${Math.round(e.getBoundingClientRect().height)} ${e.outerHTML.slice(0, 100)}`)"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", TABLES)
def test_targets_are_at_least_24_px(server, browser, name: str, width: int) -> None:
    page = person(browser, server, "en", width=width)
    PAGES[name](page, server)
    small = page.evaluate(SMALL_TARGETS)
    assert not small, "\n".join(small)


#: every element whose transition or animation lasts longer than nothing
MOVING = """() => [...document.querySelectorAll("*")].flatMap((e) => [null, "::before", "::after"]
  .filter((pseudo) => {
    const s = getComputedStyle(e, pseudo);
    const long = (x) => x.split(",").some((d) => parseFloat(d) > 0);
    return long(s.transitionDuration) || long(s.animationDuration);
  }).map((pseudo) => `${pseudo || ""} ${e.outerHTML.slice(0, 100)}`))"""


#: every card made to arrive and pulse, as a move and a hint make them
ANIMATE = (
    "() => document.querySelectorAll('.card').forEach((c) => c.classList.add('arrive', 'hinted'))"
)


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
@pytest.mark.parametrize("name", [f"{game}-mid-game" for game in SEATS] + ["replay"])
def test_reduced_motion_stops_every_transition_and_animation(
    server, browser, name: str, motion: str
) -> None:
    """With ``prefers-reduced-motion: reduce`` nothing moves: every computed transition and
    animation lasts 0 s, a move's arrival and a hint's pulse included (without it, they do)."""
    page = person(browser, server, "en", reduced_motion=motion)
    PAGES[name](page, server)
    page.evaluate(ANIMATE)
    moving = page.evaluate(MOVING)
    if motion == "no-preference":
        assert moving  # not vacuous: the same page moves for everyone else
        return
    assert not moving, "\n".join(moving)
    scrolling = page.evaluate("() => getComputedStyle(document.documentElement).scrollBehavior")
    assert scrolling != "smooth"


def test_forced_colours_keep_what_can_be_played_in_sight(server, browser) -> None:
    """In forced colours (no box shadows), a card that can be played, the card picked and the
    piles that take it are still marked: by outlines; a card no pile takes has none."""
    page = person(browser, server, "en", forced_colors="active")
    the_game_picked(page, server)
    expect(page.locator(".card.selected")).to_have_css("outline-style", "solid")
    expect(page.locator(".pile-btn.target").first).to_have_css("outline-style", "dashed")
    for card in page.locator(".hand .card.playable:not(.selected)").all():
        expect(card).to_have_css("outline-style", "dashed")
    for card in page.locator(".hand .card:not(.playable)").all():
        expect(card).to_have_css("outline-style", "none")
