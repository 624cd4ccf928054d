"""Bot accounts in the browser (issue #14): a person makes one on My games and sees its token
once, invites it to an open seat from the table page, and watches the program play it
through ``cardtable bot connect`` to the end; the seat says it is a bot."""

from __future__ import annotations

import subprocess
import sys

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
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def test_make_a_bot_account_invite_it_and_watch_its_program_play(server, browser):
    page = person(browser, server, "Nora")
    page.goto("/me")
    panel = page.get_by_test_id("bot-accounts")
    panel.get_by_test_id("new-bot-name").fill("Norabot")
    panel.get_by_test_id("new-bot").click()
    token = panel.get_by_test_id("bot-token").input_value()
    assert len(token) > 20
    expect(panel.get_by_test_id("bot-account")).to_have_count(1)
    expect(panel.get_by_test_id("bot-token-box")).to_contain_text("cardtable bot connect")
    # whom it plays with: its owner only, until she lets anyone invite it (#23)
    plays_with = panel.get_by_role("combobox", name="who may invite Norabot to a table")
    expect(plays_with).to_have_value("owner")
    with page.expect_response(lambda r: r.url.endswith("/settings")) as saved:
        plays_with.select_option("anyone")
    assert saved.value.ok
    assert page.request.get("/api/me/bots").json()["bots"][0]["plays_with"] == "anyone"
    page.reload()  # (the token box goes: it is shown once)
    expect(page.get_by_test_id("bot-plays-with")).to_have_value("anyone")
    screenshot(page, "bot-accounts.png")
    made = page.request.post("/api/tables", data={"game": "slide", "seats": ["open", "greedy"]})
    assert made.ok
    page.goto(f"/t/{made.json()['id']}")
    settled(page)
    seat = page.locator("[data-seat='0']")
    seat.get_by_test_id("invite-bot-name").fill("Norabot")
    seat.get_by_test_id("invite-bot").click()
    expect(page.locator("[data-seat='0'] .name")).to_have_text("Norabot (bot)")
    client = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardtable",
            "bot",
            "connect",
            server,
            "greedy",
            "--token",
            token,
            "--games",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert client.returncode == 0, client.stdout + client.stderr
    assert "connected as Norabot (a bot account)" in client.stdout
    expect(page.get_by_test_id("status")).to_contain_text("Game over")
    assert not page.js_errors, page.js_errors
