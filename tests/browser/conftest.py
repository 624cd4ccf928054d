"""The browser tests' Chromium: Debian's, driven by Playwright (no browser is downloaded)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


#: how long an ``expect`` waits for the page (Playwright's default is 5 s): a replay's step or
#: a table's end is drawn after a request that a loaded CI machine (the suite in parallel on
#: two cores) sometimes answers in more than 5 s
EXPECT_TIMEOUT = 15_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            "browser tests need Debian's Chromium at /usr/bin/chromium "
            "(apt-get install chromium); no browser is downloaded"
        )
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT)

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


def reader(browser: Any, base: str, lang: str | None, name: str, timeout: float, **kw: Any) -> Any:
    """A named person's page in its own browser context, reading ``lang`` (the ``lang``
    cookie the header's switcher sets; None: no cookie); ``kw`` for the context (a
    ``viewport``, ``bypass_csp``...). Its script errors gather in ``page.js_errors``."""
    context = browser.new_context(base_url=base, **kw)
    if lang:
        host = base.split("//")[1].split(":")[0]
        context.add_cookies([{"name": "lang", "value": lang, "domain": host, "path": "/"}])
    context.set_default_timeout(timeout)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    assert page.request.post("/api/me", data={"name": name}).ok
    return page
