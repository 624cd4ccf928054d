"""A person's own data on My games (issue #30): "Download my games" gives one file with the
records of their finished games, and "Delete my identity", once confirmed, ends who they are
in this browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium "
        "(apt-get install chromium); no browser is downloaded",
        allow_module_level=True,
    )

from playwright.sync_api import expect  # noqa: E402

from browser.test_browser import person, screenshot, serving  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(tmp_path_factory.mktemp("data"), log) as base:
        yield base


def test_download_my_games_then_delete_my_identity(server, browser):
    page = person(browser, server, "Vera")
    made = page.request.post("/api/tables", data={"game": "doublets", "seats": ["me"]})
    table_id = made.json()["id"]
    assert page.request.post(f"/api/tables/{table_id}/resign", data={}).ok  # finished
    page.goto("/me")
    panel = page.get_by_test_id("your-data")
    expect(panel).to_be_visible()
    screenshot(page, "my-data.png")
    with page.expect_download() as got:
        panel.get_by_role("link", name="Download my games").click()
    download = got.value
    assert download.suggested_filename.endswith(".json")
    games = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert [g["table"] for g in games] == [table_id]
    assert games[0]["record"]["game"] == "doublets" and games[0]["seat"] == 0
    # deleting asks first; keeping it changes nothing
    panel.get_by_role("button", name="Delete my identity").click()
    dialog = page.get_by_test_id("delete-me")
    expect(dialog).to_contain_text("a former player")
    dialog.get_by_test_id("delete-me-no").click()
    assert page.request.get("/api/me").json()["player"]["name"] == "Vera"
    panel.get_by_role("button", name="Delete my identity").click()
    page.get_by_test_id("delete-me-yes").click()
    page.wait_for_url("**/?deleted=1")
    assert page.request.get("/api/me").json()["player"] is None
    replay = page.request.get(f"/api/tables/{table_id}/replay?step=0").json()
    assert replay["played_by"][0][0]["name"] == "a former player"  # and it still replays
    assert page.js_errors == []
