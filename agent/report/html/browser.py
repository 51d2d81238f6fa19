"""A headless Chromium for checking the report's site: the system's browser (Debian's
``chromium`` package) driven by Playwright, never a browser Playwright downloads.

Used by the browser tests, ``benchmarks/report_html_load.py`` and ``scripts/report_screenshots.py``.
Playwright is optional (the ``test`` extra); :func:`find_chromium` and :func:`unavailable` say why
a browser cannot be had, in one line, so callers skip cleanly.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")

# Headless, no GPU, no sandbox (containers run as root), and nothing that reaches the network on
# its own (component updates, sync, QUIC probes, background fetches): the site must load offline.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


def find_chromium() -> str | None:
    """The system Chromium's path: ``$PASSAGENT_CHROMIUM`` if set, else the first of
    :data:`CHROMIUM_CANDIDATES` that exists; None if there is none."""
    env = os.environ.get("PASSAGENT_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for c in CHROMIUM_CANDIDATES:
        if Path(c).exists():
            return c
    return shutil.which("chromium")


def unavailable() -> str | None:
    """Why a headless browser cannot be launched here (one line), or None if it can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; the browser comes from apt: chromium)"
    if find_chromium() is None:
        return "no system Chromium (apt-get install chromium; or set PASSAGENT_CHROMIUM)"
    return None


@contextmanager
def chromium(viewport: tuple[int, int] = (1280, 900)) -> Iterator[Any]:
    """A Playwright browser context on the system Chromium, with a fresh empty profile folder
    (removed afterwards). Yields the ``BrowserContext``.

    Raises:
        RuntimeError: :func:`unavailable` gives a reason.
    """
    reason = unavailable()
    if reason:
        raise RuntimeError(reason)
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="passagent-chromium-")
    try:
        with sync_playwright() as p:
            # launch_persistent_context takes the profile folder (Playwright refuses a
            # --user-data-dir among args): https://playwright.dev/python/docs/api/class-browsertype
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=find_chromium(), headless=True, args=list(CHROMIUM_FLAGS[1:]),
                viewport={"width": viewport[0], "height": viewport[1]}, offline=True)
            try:
                yield ctx
            finally:
                ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def load_time_ms(page: Any, url: str) -> float:
    """Navigate ``page`` to ``url`` and return the Navigation Timing ``loadEventEnd`` (ms from
    the navigation's start: the document, its stylesheet and script parsed, laid out and run)."""
    page.goto(url, wait_until="load")
    return float(page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd; }"))
