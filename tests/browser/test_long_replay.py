"""The replay page of a long game, in Debian's Chromium: the log is fetched a page at a time
(issue #23: a long game's whole log was a megabyte per answer, rebuilt on the server's event
loop), and stepping past the end of a page brings the next one, with the current move marked
in it. The game (a Slide of two greedy seats to 300) is written straight into the store."""

from __future__ import annotations

import pytest

# Chromium and its flags: as every browser test (conftest.py)
from browser.conftest import ARGS, CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from server.conftest import InProcessServer  # noqa: E402
from server.test_replays import stored_game  # noqa: E402

PAGE = 200  # replay.js's LOG_PAGE


def test_stepping_past_a_log_page_fetches_the_next(tmp_path):
    server = InProcessServer(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path)
    server.start()
    try:
        table_id, steps = stored_game(server.db_url, "slide", 2, {"target": 300}, 5)
        assert steps > PAGE + 2
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
            page = browser.new_context(base_url=server.base).new_page()
            page.set_default_timeout(15_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url) if "log=1" in r.url else None)
            words = page.request.get(
                f"/api/tables/{table_id}/replay",
                params={"log": 1, "log_offset": PAGE - 2, "log_limit": 4},
            ).json()["log"]
            page.goto(f"/t/{table_id}/replay#move={PAGE - 1}")
            expect(page.locator("body")).to_have_attribute("data-step", str(PAGE - 1))
            lines = page.locator(".log-line:not(.log-news)")  # the moves (not the scorings)
            expect(lines).to_have_count(PAGE)  # the first page only, not the whole log
            expect(lines.first).to_have_attribute("data-n", "0")
            expect(page.locator(".log-line.current")).to_have_attribute("data-n", str(PAGE - 2))
            fetched = len(asked)
            for n in (PAGE, PAGE + 1, PAGE + 2):  # the last line of page 0, then page 1
                page.click("#next")
                expect(page.locator("body")).to_have_attribute("data-step", str(n))
                expect(page.locator(".log-line.current")).to_have_attribute("data-n", str(n - 1))
                expect(page.get_by_test_id("what")).to_have_text(words[n - PAGE + 1]["text"])
            expect(lines.first).to_have_attribute("data-n", str(PAGE))
            expect(lines).to_have_count(min(PAGE, steps - PAGE))
            assert any(f"log_offset={PAGE}&" in url for url in asked[fetched:]), asked
            expect(page.locator("section.log h2")).to_contain_text(f"of {steps}")
            # back across the boundary: page 0 again (already fetched)
            page.click("#prev")
            page.click("#prev")
            expect(page.locator("body")).to_have_attribute("data-step", str(PAGE))
            expect(lines.first).to_have_attribute("data-n", "0")
            browser.close()
            assert not errors, errors
    finally:
        server.stop()
