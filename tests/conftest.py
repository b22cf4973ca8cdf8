"""Headless Chromium (Debian's, launched by Playwright) for the browser tests of
every folder (tests/e2e, tests/hall): one for the session, since Playwright's
sync API cannot run twice in one process."""

from __future__ import annotations

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield browser
        browser.close()
