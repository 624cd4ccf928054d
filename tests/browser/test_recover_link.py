"""A recovery link asks before it switches who this browser is (#23): a link with someone
else's code names whom it signs in as and whom the browser stops being, offers to keep a
code for them first, and changes nothing until the person clicks; Escape and Cancel keep the
identity. Clicked through in Debian's Chromium against a real server."""

from __future__ import annotations

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

from playwright.sync_api import Page, expect  # noqa: E402

from browser.test_browser import person, screenshot, serving  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # a server of its own: every look-up of a code counts against one budget per address
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def who(page: Page) -> str:
    """Whom the browser's cookie names, asked of the server."""
    return page.request.get("/api/me").json()["player"]["name"]


def test_a_link_with_someone_elses_code_switches_nobody_without_a_click(server, browser):
    eve = person(browser, server, "Eve")
    code = eve.request.post("/api/me/recovery", data={}).json()["code"]
    ann = person(browser, server, "Ann")
    ann.goto(f"/#recover={code}")
    ask = ann.get_by_role("alertdialog", name="Play as Eve?")
    expect(ask).to_be_visible()
    expect(ask.get_by_test_id("recover-who")).to_have_text("This link signs you in as Eve.")
    expect(ask.get_by_test_id("recover-loses")).to_have_text(
        "You are Ann now: keep a recovery code for Ann first, or you lose Ann."
    )
    expect(ask.get_by_test_id("recover-cancel")).to_be_focused()  # focus moved into it
    assert "recover" not in ann.url and who(ann) == "Ann"  # nothing changed yet
    screenshot(ann, "recover-ask.png")
    ann.keyboard.press("Escape")  # Escape cancels
    expect(ask).to_have_count(0)
    expect(ann.get_by_test_id("me-name")).to_have_text("Ann")
    assert who(ann) == "Ann"
    ann.goto(f"/#recover={code}")  # the safe button, from the keyboard
    expect(ann.get_by_test_id("recover-cancel")).to_have_text("Stay Ann")
    ann.keyboard.press("Enter")
    expect(ann.get_by_test_id("recover-ask")).to_have_count(0)
    assert who(ann) == "Ann"
    # she keeps a code for Ann, then chooses to play as Eve
    ann.goto(f"/#recover={code}")
    ann.get_by_test_id("recovery-make").click()
    kept = ann.get_by_test_id("recovery-code").inner_text().strip()
    assert who(ann) == "Ann"
    ann.get_by_test_id("recover-confirm").click()
    expect(ann.get_by_test_id("me-name")).to_have_text("Eve")
    assert who(ann) == "Eve"
    whose = ann.request.post("/api/me/recover/whose", data={"code": kept}).json()
    assert whose["player"]["name"] == "Ann"  # Ann is not lost: her code brings her back
    for page in (eve, ann):
        assert not page.js_errors, page.js_errors
