"""Each game played to its end with the keyboard alone, in Debian's Chromium against a real
server: Tab and Shift+Tab move the focus, Enter and Space press (never a mouse click), and
at every step the focused element shows a focus ring that nothing covers (WCAG 2.4.7, 2.4.11).
A screen reader hears "Your turn" once a turn, and the end once (docs/accessibility.md).
"""

from __future__ import annotations

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

from playwright.sync_api import Page, expect  # noqa: E402

from browser.test_browser import best_play, serving, settled, status, version, winning_deal  # noqa: E402

#: the focused element: whether it matches ``selector``, and whether its focus shows (an
#: outline of 2 px or more, and the element itself at the centre of its box: nothing covers it)
FOCUS = """(selector) => {
  const a = document.activeElement;
  if (!a || a === document.body) return {none: true};
  const style = getComputedStyle(a);
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const r = a.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {none: false, matches: a.matches(selector), ring, covered: !(top && a.contains(top)),
    what: a.outerHTML.slice(0, 120)};
}"""
#: whether ``selector``'s element comes after the focused one (Tab) or before (Shift+Tab)
AFTER = """(selector) => {
  const t = document.querySelector(selector);
  const a = document.activeElement || document.body;
  return !!t && (a === document.body
    || !!(a.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING));
}"""
#: "Your turn" said to a screen reader: each time the live region gets it, and each time the
#: page's turn comes (the body's data-my-turn becomes "1")
LISTEN = """() => {
  window.__said = []; window.__turns = 0;
  const box = document.getElementById("announce");
  new MutationObserver(() => { if (box.textContent) window.__said.push(box.textContent); })
    .observe(box, {childList: true, characterData: true, subtree: true});
  if (box.textContent) window.__said.push(box.textContent);
  if (document.body.dataset.myTurn === "1") window.__turns += 1;
  new MutationObserver((records) => {
    for (const r of records) if (r.oldValue !== "1" && document.body.dataset.myTurn === "1")
      window.__turns += 1;
  }).observe(document.body, {attributes: true, attributeFilter: ["data-my-turn"],
    attributeOldValue: true});
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def player(browser, base: str, width: int = 1280) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=base)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    assert page.request.post("/api/me", data={"name": "Kay"}).ok
    return page


def choose(page: Page, selector: str, value: str) -> None:
    """Tab to the menu ``selector`` and pick ``value`` with the arrow keys."""
    key_to(page, selector)
    for _ in range(12):
        if page.locator(selector).input_value() == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{value} is not among {selector}'s choices")


def create_by_keyboard(page: Page, game: str) -> None:
    """A table of ``game`` for the person and a bot, made in the lobby with the keyboard."""
    page.goto("/")
    expect(page.locator("#create-form [name=game] option").first).to_be_attached()
    choose(page, "#create-form [name=game]", game)
    choose(page, "#create-form [name=count]", "2")
    expect(page.locator("#seat-rows select").nth(1)).to_have_value("greedy")
    key_to(page, "#create-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    settled(page)
    page.evaluate(LISTEN)


def focus_shows(page: Page, selector: str = "*") -> bool:
    """Whether the focus is on ``selector``; the focus, wherever it is, must show."""
    at = page.evaluate(FOCUS, selector)
    if at["none"]:
        return False
    assert at["ring"], f"no visible focus ring on {at['what']}"
    assert not at["covered"], f"the focused {at['what']} is covered"
    return at["matches"]


def key_to(page: Page, selector: str, limit: int = 250) -> None:
    """Tab (or Shift+Tab, whichever way it lies) until ``selector`` has the focus, checking
    the focus shows at every step."""
    key = "Tab" if page.evaluate(AFTER, selector) else "Shift+Tab"
    for _ in range(limit):
        if focus_shows(page, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{selector} never got the focus")


def press(page: Page, key: str) -> None:
    """Press ``key`` on the focused element and wait for the server's new state."""
    assert focus_shows(page)
    before = version(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "v => (document.body.dataset.version !== v && !document.body.dataset.busy)"
        " || document.body.dataset.status === 'over'",
        arg=before,
    )


def wait_turn(page: Page, before: str) -> None:
    page.wait_for_function(
        "v => document.body.dataset.version !== v || document.body.dataset.status === 'over'",
        arg=before,
    )


def said_once_a_turn(page: Page, least: int = 2) -> None:
    """A screen reader heard "Your turn" once a turn, then the end once, in the verdict's
    words."""
    said, turns = page.evaluate("[window.__said, window.__turns]")
    verdict = page.get_by_test_id("verdict").inner_text()
    assert turns >= least and said == ["Your turn"] * turns + [verdict], (said, turns)


def ended(page: Page) -> None:
    expect(page.get_by_test_id("results")).to_be_visible()
    assert not page.js_errors


# -- Slide against a bot ------------------------------------------------------------------------
def test_slide_by_keyboard(server, browser):
    page = player(browser, server)
    create_by_keyboard(page, "slide")
    keys = iter(["Enter", "Space"] * 100)
    while status(page) != "over":
        settled(page)
        before = version(page)
        phase = page.get_attribute(".slide-board", "data-phase")
        reveal = page.locator('[data-action^="reveal "]')
        if phase == "reveal" and reveal.count() and not page.locator(".card.choice").count():
            key_to(page, f'[data-key="{reveal.first.get_attribute("data-key")}"]')
            press(page, next(keys))
            continue
        centre = page.locator("[data-actions]")
        if phase == "take" and centre.count():
            if not page.locator(".arrow").count():
                key_to(page, f'[data-key="{centre.first.get_attribute("data-key")}"]')
                page.keyboard.press(next(keys))  # picks the card: the focus goes to an arrow
            key_to(page, ".arrow")
            press(page, next(keys))
            continue
        wait_turn(page, before)
    ended(page)
    said_once_a_turn(page)


# -- The Game against a bot -------------------------------------------------------------------
def test_the_game_by_keyboard(server, browser):
    page = player(browser, server)
    create_by_keyboard(page, "the-game")
    # a signal: the toolbar is one Tab stop, the arrow keys move along it
    key_to(page, '.sig-grid [data-key="sig-up1-avoid"]')
    page.keyboard.press("ArrowRight")
    expect(page.locator('[data-key="sig-up1-small"]')).to_be_focused()
    press(page, "Enter")
    expect(page.locator('[data-pile="up1"] [data-signal="0 small"]')).to_be_visible()
    while status(page) == "running":
        settled(page)
        before = version(page)
        if page.locator('[data-action="end"]').count():
            key_to(page, '[data-action="end"]')
            press(page, "Space")
            continue
        play = best_play(page)
        if play is None:
            wait_turn(page, before)
            continue
        card, action = play
        key_to(page, f'[data-key="hand-{card}"]')
        page.keyboard.press("Enter")  # picks the card: the focus goes to a pile that takes it
        expect(page.locator(".pile-btn.target").first).to_be_focused()
        key_to(page, f'[data-action="{action}"]')
        press(page, "Enter")
        # the pile, disabled once the card is played, leaves the focus on the board
        assert page.evaluate("() => !!document.activeElement.closest('#board')")
    ended(page)
    said_once_a_turn(page)


# -- Doublets alone: a deal it wins -----------------------------------------------------------
def test_doublets_by_keyboard(server, browser):
    seed, moves = winning_deal()
    page = player(browser, server, width=390)  # a phone's width, a keyboard attached
    page.goto("/")
    choose(page, "[name=alone-game]", "doublets")
    key_to(page, "#alone-deal")
    page.keyboard.type(str(seed))
    key_to(page, "[data-testid=play-alone]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    settled(page)
    expect(page.get_by_test_id("deal")).to_have_text(f"Deal #{seed}")
    page.evaluate(LISTEN)
    for i, move in enumerate(moves):
        settled(page)
        key_to(page, f'[data-action="{move}"]')
        press(page, "Enter" if i % 2 else "Space")
    ended(page)
    assert page.get_by_test_id("results").get_attribute("data-won") == "true"
    said_once_a_turn(page, least=1)  # alone: one turn, the whole deal


# -- past the top bar -----------------------------------------------------------------------------
@pytest.mark.parametrize("width", [1280, 390])
def test_the_skip_link_goes_past_the_top_bar_to_the_board(server, browser, width: int):
    """The first Tab shows the skip link; Enter on it puts the focus on the board, and the
    next Tab is on the first card of the hand."""
    page = player(browser, server, width=width)
    table = page.request.post("/api/tables", data={"game": "the-game", "seats": ["me", "greedy"]})
    page.goto(f"/t/{table.json()['id']}")
    page.wait_for_selector("[data-testid=hand] [data-actions]")  # the first turn is ours
    settled(page)
    page.keyboard.press("Tab")
    assert focus_shows(page, "[data-testid=skip]")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_be_focused()
    page.keyboard.press("Tab")
    assert focus_shows(page, "[data-testid=hand] [data-card]")


# -- the focus check itself ----------------------------------------------------------------------
def test_the_focus_check_sees_a_focus_hidden_or_covered(server, browser):
    """Not vacuous: a focus without its ring, or under another box, fails the check."""
    page = player(browser, server)
    page.goto("/")
    key_to(page, "#create-form [name=game]")
    page.evaluate("() => document.activeElement.style.setProperty('outline', 'none', 'important')")
    with pytest.raises(AssertionError, match="no visible focus ring"):
        focus_shows(page)
    page.evaluate("() => document.activeElement.style.removeProperty('outline')")
    assert focus_shows(page)
    page.evaluate("""() => {
      const box = document.createElement("div");
      for (const [k, v] of [["position", "fixed"], ["inset", "0"], ["background", "#fff"]])
        box.style.setProperty(k, v);
      document.body.append(box);
    }""")
    with pytest.raises(AssertionError, match="is covered"):
        focus_shows(page)
