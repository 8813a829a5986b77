"""A real headless browser for the viewer's tests: Playwright for Python driving Debian's chromium.

Playwright's own browser download is never used: ``scripts/bootstrap.sh`` installs Debian's
``chromium`` when it is missing, and ``TGNEO_CHROMIUM`` may point at another binary. Screenshots go
to ``test-artifacts/`` (git ignores it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def chromium_path() -> str:
    """Debian's chromium (or ``TGNEO_CHROMIUM``); fails with what to install when there is none."""
    found = os.environ.get("TGNEO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "no chromium: apt-get install chromium (scripts/bootstrap.sh does it), or set TGNEO_CHROMIUM"
    return found


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for one test module."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"
