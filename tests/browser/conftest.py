"""Fixtures for browser tests: Chromium via Playwright, skipped (not failed) off CI when
Chromium is missing, failed on CI so a missing install step cannot hide."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from .harness import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, chromium_available


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not chromium_available():
        if os.environ.get("CI"):
            pytest.fail(f"browser tests need {CHROMIUM} and jupyter on CI")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    print(f"browser screenshots go to {SCREENSHOTS}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
