"""Every word of the pages in the reader's language, checked in Debian's Chromium against a
real server.

1. The pseudo-language (the ``lang=en-XA`` cookie: every catalogued word accented, 40 %
   longer and between ⟦ and ⟧): every page (the lobby and its dialogs, My games, the
   leaderboard, a rules page, a replay, the no-such-page pages, each game's table mid-game and
   at its end, against bots) shows no text, placeholder, title, aria-label or stylesheet word
   without the markers (``ALLOWED`` lists what may stay as it is, and why), and nothing is cut
   off or scrolls sideways at 390 px and at 1280 px (on a phone with its menu open too).
2. The switcher: choosing Čeština in the lobby (from the keyboard: the arrow keys step, Enter
   takes it) reloads it in Czech, and the next page is Czech too.
3. ``Accept-Language: de`` with no cookie gives German pages, the server's own ones too.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect

from browser.conftest import reader
from browser.test_browser import TIMEOUT, finished_bots_table, serving, settled, winning_deal
from helpers import play_with_greedy
from server.conftest import Socket

PSEUDO = "en-XA"
WIDTHS = (1280, 390)
#: the seats of each game's table: the page's person and a bot (Doublets: a deal it wins)
SEATS = {"slide": ["me", "greedy"], "the-game": ["me", "greedy"], "doublets": ["me"]}
NAME = "Ada"

#: the parts of a page whose words are not the page's own, each with the reason
ALLOWED = {
    "#notation, .notation, .last-move-notation": "a move's notation (reveal b2), never translated",
    "article.rules": "a rules page's text: the page written in each language (docs/rules)",
    ".lang-switch": "the languages, each in its own name",
    "[data-testid=not-found] code": "the address asked for",
    ".recovery-code": "a recovery code: letters and digits, not words",
    "time": "a moment as the reader's language writes it (Intl), not a catalog's words",
}
#: text that may stand unmarked anywhere: the site's name, game titles, people's and bots'
#: names (filled in per run), cells (b2), reserves (r3), card letters (A J Q K) and numbers
ALWAYS = [
    r"\bcardtable\b",
    r"\b[a-d][1-4]\b",
    r"\br[1-7]\b",
    r"\b[AJQKF]\b",
]

#: every visible text node and every placeholder, title and aria-label outside the allowed
#: parts: [words, where]
WORDS = """(skip) => {
  const out = [];
  const allowed = (node) => node.closest(skip);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    const text = n.textContent.trim();
    if (!text || !parent || allowed(parent)) continue;
    if (parent.closest('script, style, template, .sr-only')) continue;
    const option = parent.closest('option');
    const shown = option ? option.parentElement.checkVisibility()
      : parent.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    if (shown) out.push([text, parent.tagName + '.' + parent.className]);
  }
  // words a stylesheet writes (content: "…") escape the catalog: only attr() may fill one
  for (const e of document.body.querySelectorAll('*')) {
    if (allowed(e) || !e.checkVisibility()) continue;
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(e, pseudo).content;
      if (/^".*\\p{L}/u.test(content)) {
        out.push([content, `${e.tagName}.${e.className}${pseudo}`]);
      }
    }
  }
  for (const e of document.body.querySelectorAll('[placeholder], [title], [aria-label]')) {
    // (a <time>'s title is its moment as the reader's language writes it: Intl)
    if (allowed(e) || !e.checkVisibility() || e.tagName === 'TIME') continue;
    for (const name of ['placeholder', 'title', 'aria-label']) {
      const value = (e.getAttribute(name) || '').trim();
      if (value) out.push([value, `${e.tagName}.${e.className}[${name}]`]);
    }
  }
  return out;
}"""

#: elements whose content is cut off: wider than their box where the box clips it, and
#: empty text boxes too narrow for their placeholder
CLIPPED = """() => [...document.querySelectorAll('body *')].filter((e) => {
  if (e.tagName === 'INPUT' && e.placeholder && !e.value && e.checkVisibility()) {
    const style = getComputedStyle(e);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = style.font;
    const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - (e.type === 'number' ? 16 : 0);  // (a number box's spinner)
    return pen.measureText(e.placeholder).width > room + 1;
  }
  // (a text box scrolls its value: a long link in one is not cut off)
  if (!e.checkVisibility() || e.closest('.sr-only') || e.tagName === 'INPUT') return false;
  const style = getComputedStyle(e);
  const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
  return clips && e.scrollWidth > e.clientWidth + 1 && !e.title;
}).slice(0, 8).map((e) => `${e.tagName}.${e.className}#${e.id || e.name || ''}: `
  + `${(e.placeholder || e.textContent).slice(0, 40)} (${e.clientWidth} px)`)"""

WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 8)
  .map((e) => `${e.tagName}.${e.className}: ${e.textContent.slice(0, 30)}`)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def person(browser, base: str, lang: str | None, width: int = 1280, **kw) -> Page:
    """A named person's page in its own context, reading ``lang`` (its cookie; None: none)."""
    return reader(
        browser, base, lang, NAME, TIMEOUT, viewport={"width": width, "height": 900}, **kw
    )


def new_table(page: Page, game: str, seed: int | None = None) -> str:
    answer = page.request.post(
        "/api/tables", data={"game": game, "seats": SEATS[game], "seed": seed}
    )
    assert answer.ok, answer.text()
    return answer.json()["id"]


def play_to_end(page: Page, base: str, table_id: str, game: str) -> None:
    """Play the page's person's seat to its end with the greedy policy, through a websocket
    of the person's own; the page is opened afterwards."""
    import websockets

    token = next(c["value"] for c in page.context.cookies() if c["name"] == "cardtable_token")
    url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={token}"

    async def run() -> None:
        async with websockets.connect(url) as ws:
            state = await play_with_greedy(Socket(ws), game, timeout=120)
            assert state["table"]["status"] == "over", state["table"]

    with ThreadPoolExecutor(1) as pool:  # (Playwright's API runs a loop in this thread)
        pool.submit(asyncio.run, run()).result()


def unmarked(page: Page, names: list[str]) -> list[str]:
    """The page's words without the pseudo-language's markers, less what ``ALWAYS`` and
    the names allow."""
    free = re.compile("|".join([*ALWAYS, *(re.escape(n) for n in names)]), re.IGNORECASE)
    found = []
    for text, where in page.evaluate(WORDS, ", ".join(ALLOWED)):
        if "⟦" in text or "⟧" in text:  # (a message around a link: its ends)
            continue
        if re.search(r"[^\W\d_]", free.sub("", text)):
            found.append(f"{where}: {text[:80]!r}")
    return found


def fits(page: Page, where: str) -> None:
    """Nothing scrolls sideways or is cut off, at each width (on a phone with its menu open
    too)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)  # a new layout, not a new state
        views = [""]
        toggle = page.get_by_test_id("menu")
        modal = page.locator("dialog[open]").count()  # (a modal dialog covers the menu)
        if width < 480 and not modal and toggle.count() and toggle.is_visible():
            toggle.click()
            views.append(" (menu open)")
        for view in views:
            widths = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            wide = page.evaluate(WIDE) if widths[0] > widths[1] else []
            assert widths[0] <= widths[1], f"{where} at {width} px{view}: too wide: {wide}"
            clipped = page.evaluate(CLIPPED)
            assert not clipped, f"{where} at {width} px{view}: cut off: {clipped}"
        if len(views) > 1:
            toggle.click()
    page.set_viewport_size({"width": 1280, "height": 900})


# -- the pages: each opens one in ``page`` and waits until it is drawn -----------------------
def lobby(page: Page, base: str) -> None:
    page.goto("/")
    expect(page.locator("#create-form [name=game] option").first).to_be_attached()
    expect(page.get_by_test_id("me-name")).to_be_visible()
    expect(page.get_by_test_id("language")).to_be_visible()


def recovery_dialog(page: Page, base: str) -> None:
    lobby(page, base)
    page.get_by_test_id("other-device").click()
    page.get_by_test_id("recovery-make").click()
    expect(page.get_by_test_id("recovery-code")).to_be_visible()


def name_dialog(page: Page, base: str) -> None:
    lobby(page, base)
    page.locator(".topbar .who button").first.click()  # Rename
    expect(page.locator("dialog input[name=name]")).to_be_visible()


def new_deal_question(page: Page, base: str) -> None:
    page.goto(f"/t/{new_table(page, 'doublets', winning_deal()[0])}")
    settled(page)
    page.locator("[data-tool=new_deal] button").click()
    expect(page.get_by_test_id("new-deal")).to_be_visible()


def my_games(page: Page, base: str) -> None:
    finished = new_table(page, "doublets", winning_deal()[0])
    play_to_end(page, base, finished, "doublets")
    new_table(page, "slide")  # and one unfinished
    page.goto("/me")
    expect(page.get_by_test_id("finished-game").first).to_be_visible()
    expect(page.get_by_test_id("bot-accounts")).to_be_visible()


def leaderboard(page: Page, base: str) -> None:
    page.goto("/leaderboard")
    expect(page.locator("[data-game]").first).to_be_visible()


def rules(page: Page, base: str) -> None:
    page.goto("/rules/slide")
    expect(page.get_by_test_id("rules")).to_be_visible()


def no_such_page(page: Page, base: str) -> None:
    page.goto("/no/such/page")
    expect(page.get_by_test_id("not-found")).to_be_visible()


def no_such_table(page: Page, base: str) -> None:
    page.goto("/t/no-such-table")
    expect(page.get_by_test_id("no-table")).to_be_visible()


def replay(page: Page, base: str) -> None:
    page.goto(f"/t/{finished_bots_table(page)}/replay#move=5")
    expect(page.get_by_test_id("step")).to_contain_text("5")
    expect(page.locator("#board > *").first).to_be_visible()


def replay_review(page: Page, base: str) -> None:
    """A shared game's replay with its review, at its first marked move (its note, the
    better move drawn), the chart in words unfolded."""
    table_id = finished_bots_table(page)
    assert page.request.post(f"/api/tables/{table_id}/review", data={"depth": "quick"}).ok
    deadline = time.monotonic() + 120
    while (answer := page.request.get(f"/api/tables/{table_id}/review").json())["status"] != "done":
        assert time.monotonic() < deadline, answer
        time.sleep(0.3)
    marked = [m for m in answer["review"]["moves"] if m["mark"]]
    page.goto(f"/t/{table_id}/replay#move={marked[0]['step'] + 1 if marked else 1}")
    expect(page.get_by_test_id("review-chart")).to_be_visible()
    expect(page.get_by_test_id("review-note")).not_to_be_empty()
    page.get_by_test_id("review-text").locator("summary").click()


def mid_game(game: str) -> Callable[[Page, str], None]:
    def show(page: Page, base: str) -> None:
        page.goto(f"/t/{new_table(page, game)}")
        settled(page)
        expect(page.get_by_test_id("prompt")).not_to_be_empty()

    return show


def open_table(page: Page, base: str) -> None:
    """A table waiting for a friend: the invitation, a free seat, a bot account's invite."""
    answer = page.request.post("/api/tables", data={"game": "slide", "seats": ["me", "open"]})
    page.goto(f"/t/{answer.json()['id']}")
    expect(page.get_by_test_id("invite")).to_be_visible()
    expect(page.get_by_test_id("invite-bot-name")).to_be_visible()


def clocked_table(page: Page, base: str) -> None:
    body = {
        "game": "the-game",
        "seats": ["me", "greedy"],
        "clock": {"mode": "turn", "seconds": 86400},
    }
    answer = page.request.post("/api/tables", data=body)
    assert answer.ok, answer.text()
    page.goto(f"/t/{answer.json()['id']}")
    expect(page.get_by_test_id("clock").first).to_be_visible()


def game_end(game: str) -> Callable[[Page, str], None]:
    def show(page: Page, base: str) -> None:
        table = new_table(page, game, winning_deal()[0] if game == "doublets" else None)
        play_to_end(page, base, table, game)
        page.goto(f"/t/{table}")
        expect(page.get_by_test_id("results")).to_be_visible()

    return show


def tutorial(page: Page, base: str) -> None:
    """A tutorial's table after a move other than the suggestion: the tutor's words."""
    answer = page.request.post("/api/tutorials/slide", data={})
    assert answer.ok, answer.text()
    page.goto(f"/t/{answer.json()['id']}")
    expect(page.get_by_test_id("tutor-play")).to_be_enabled()
    page.locator('[data-action="reveal a1"]').click()  # (the tutor suggests an inner cell)
    expect(page.get_by_test_id("tutor-deviation")).to_be_visible()


def tournaments(page: Page, base: str) -> None:
    page.goto("/tournaments")
    expect(page.get_by_test_id("tournament-game").locator("option").first).to_be_attached()


def tournament(page: Page, base: str) -> None:
    from browser.test_tournaments import finished_tournament

    # (the names people give: the person's own, allowed untranslated)
    page.goto(f"/tournaments/{finished_tournament(page, base, NAME, NAME)}")
    expect(page.get_by_test_id("round-table")).to_have_count(1)


PAGES = {
    "lobby": lobby,
    "the recovery code": recovery_dialog,
    "the name dialog": name_dialog,
    "a new deal's question": new_deal_question,
    "my games": my_games,
    "leaderboard": leaderboard,
    "rules": rules,
    "replay": replay,
    "a replay with its review": replay_review,
    "no such page": no_such_page,
    "no such table": no_such_table,
    **{f"{game} mid-game": mid_game(game) for game in SEATS},
    "a table waiting for players": open_table,
    "a table with clocks": clocked_table,
    **{f"{game} at its end": game_end(game) for game in SEATS},
    "a tutorial": tutorial,
    "tournaments": tournaments,
    "a tournament over": tournament,
}


@pytest.mark.parametrize("name", list(PAGES))
def test_every_word_is_translated_and_fits(server, browser, name):
    page = person(browser, server, PSEUDO)
    PAGES[name](page, server)
    if name != "rules":  # (a rules page's language is its text's: English here)
        expect(page.locator("html")).to_have_attribute("lang", PSEUDO)
    bots = [b["name"] for g in page.request.get("/api/games").json() for b in g["bots"]]
    titles = [g["title"] for g in page.request.get("/api/games").json()]
    found = unmarked(page, [NAME, *titles, *bots])
    assert not found, f"{name}: words that escaped translation:\n" + "\n".join(found)
    fits(page, name)
    assert not page.js_errors


def test_the_switcher_reloads_the_page_in_the_language_chosen(server, browser):
    page = person(browser, server, None)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#create-title")).to_have_text("New table")
    switcher = page.get_by_test_id("language")
    expect(switcher).to_have_accessible_name("Language")
    expect(switcher.locator("option")).to_have_text(
        ["English", "Čeština", "Slovenčina", "Deutsch", "Norsk bokmål"]
    )
    # from the keyboard: the arrow keys step through the closed menu without reloading the
    # page at every step; Enter takes the language stepped to
    switcher.focus()
    page.keyboard.press("ArrowDown")
    expect(switcher).to_have_value("cs")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#create-title")).to_have_text("Nový stůl")
    expect(page.get_by_test_id("my-games-link")).to_have_text("Moje hry")  # the script's words
    expect(page.get_by_test_id("language")).to_have_value("cs")
    # the choice holds: the next page, and the server's own pages
    page.goto("/leaderboard")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("h1")).to_have_text("Žebříček")
    page.goto("/no/such/page")
    expect(page.locator("h1")).to_have_text("Taková stránka neexistuje")
    # and back to English from a page the server renders itself, with the pointer: at once
    with page.expect_navigation():
        page.get_by_test_id("language").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("No such page")
    assert not page.js_errors


def test_accept_language_gives_german_pages(server, browser):
    page = person(browser, server, None, extra_http_headers={"Accept-Language": "de"})
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#create-title")).to_have_text("Neuer Tisch")
    expect(page.get_by_test_id("my-games-link")).to_have_text("Meine Partien")
    expect(page.get_by_test_id("language")).to_have_value("de")
    page.goto(f"/t/{new_table(page, 'slide')}")
    settled(page)
    expect(page.locator(".rules-link")).to_have_text("Regeln")
    expect(page.get_by_test_id("prompt")).to_have_text(
        "Klick eine deiner verdeckten Karten an, um sie aufzudecken."
    )
    page.goto("/rules/nothing-here")
    expect(page.locator("h1")).to_have_text("Diese Seite gibt es nicht")
    assert not page.js_errors
