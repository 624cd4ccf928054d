"""The replay page and the results of a seat handed to a bot, in Debian's Chromium: the
person's name on her moves, the bot's on its own, both in the results; bots marked as bots on
the leaderboard. The game is played by real websocket clients (tests/server/test_seats.py)."""

from __future__ import annotations

import asyncio
import re

import pytest

# Chromium and its flags: as every browser test (conftest.py)
from browser.conftest import ARGS, CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True
    )

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from server.conftest import Client  # noqa: E402
from server.test_seats import ann_then_greedy, grace_server_for  # noqa: E402


def test_the_replay_names_the_person_on_her_moves_and_the_bot_after(tmp_path):
    server = grace_server_for(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path)
    server.start()
    try:
        bob, ann = Client(server, "Bob"), Client(server, "Ann")
        table_id, handed_at = asyncio.run(ann_then_greedy(bob, ann))
        actions = bob.http.get(f"/api/tables/{table_id}/record").json()["actions"]
        ann_step = next(n for n, (seat, _) in enumerate(actions) if seat == 1) + 1
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
            page = browser.new_context(base_url=server.base).new_page()
            page.set_default_timeout(15_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"/t/{table_id}/replay")
            expect(page.get_by_test_id("what")).to_have_text("the deal")
            for step in range(1, handed_at + 2):
                page.click("#next")
                expect(page.locator("body")).to_have_attribute("data-step", str(step))
                if step == ann_step:  # her move in words, under her name (#11)
                    expect(page.get_by_test_id("what")).to_have_text(re.compile("^Ann "))
                    expect(page.get_by_test_id("notation")).to_have_text(actions[step - 1][1])
            # the step after the handover: seat 1's move is the bot's, on her seat (#24)
            assert actions[handed_at][0] == 1
            expect(page.get_by_test_id("what")).to_have_text(
                re.compile(r"^Ann — played by Greedy ")
            )
            expect(page.get_by_test_id("notation")).to_have_text(actions[handed_at][1])
            page.click("#last")
            results = page.get_by_test_id("results")
            expect(results).to_contain_text("Ann — played by Greedy")
            expect(results).not_to_contain_text("Ann, then")
            page.goto("/leaderboard")
            bot_row = page.locator('[data-game=slide] td[data-bot="true"]')
            expect(bot_row).to_have_count(1)
            expect(bot_row.locator(".badge.bot")).to_have_text("bot")
            expect(page.locator('[data-game=slide] td[data-bot="false"]')).to_have_text("Bob ")
            assert not errors, errors
            browser.close()
    finally:
        server.kill()
