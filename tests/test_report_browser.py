"""The report's site in a real headless browser: Debian's Chromium driven by Playwright
(``passagent.agent.report.html.browser``). Skips with a one-line reason where Playwright or the
system Chromium is missing (``scripts/setup.sh`` installs both where apt is available).

The site comes from synthetic run folders in the format the loop records
(``benchmarks/report_html_load.py``), so the test needs no Inductor compile."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from passagent.agent.report.build import write_report
from passagent.agent.report.html.browser import chromium, unavailable

ROOT = Path(__file__).resolve().parents[1]
_REASON = unavailable()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"no headless browser: {_REASON}")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    spec = importlib.util.spec_from_file_location("report_html_load", ROOT / "benchmarks" / "report_html_load.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    root = tmp_path_factory.mktemp("browser-site")
    bench.synthetic_sweep(root / "sw", tasks=6, models=3, steps=60)
    return write_report(root / "sw", n_boot=100, plots=False, html=True).html_index.parent


@pytest.fixture(scope="module")
def browser():
    with chromium() as ctx:
        yield ctx


def _png_ok(path: Path, min_width: int = 600) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5_000, f"{path.name}: not a real screenshot"
    width = int.from_bytes(data[16:20], "big")
    assert width >= min_width, f"{path.name}: {width} px wide"


def test_leaderboard_renders_sorts_and_links_to_a_trajectory(site: Path, browser, tmp_path: Path) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto((site / "index.html").as_uri())
    assert page.locator("#leaderboard tbody tr").count() == 4, "three models and default Inductor"
    assert page.locator("tr.reference").is_visible()
    assert page.locator("#matrix tbody tr").count() == 6
    # Sorting by AS (third column), then descending on a second click.
    header = page.locator("#leaderboard thead th").nth(2)
    header.click()
    values = [float(v) for v in page.locator("#leaderboard tbody tr td:nth-child(3)").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-v'))")]
    assert values == sorted(values)
    header.click()
    values = [float(v) for v in page.locator("#leaderboard tbody tr td:nth-child(3)").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-v'))")]
    assert values == sorted(values, reverse=True)
    # The task filter hides the other rows.
    page.fill("input.filter", "task_003")
    assert page.locator("#matrix tbody tr:visible").count() == 1
    page.screenshot(path=str(tmp_path / "index.png"), full_page=True)
    _png_ok(tmp_path / "index.png")
    # A matrix cell opens the run's trajectory.
    page.locator("#matrix tbody tr:visible td.cell a").first.click()
    page.wait_for_load_state("load")
    assert "/runs/task_003/" in page.url
    assert page.locator("h1").inner_text().endswith("task_003")
    assert page.locator("#steps > section.step:visible").count() == 25, "the first page of steps"
    assert not errors, errors


def test_trajectory_viewer_pages_steps_and_highlights_integrity(site: Path, browser, tmp_path: Path) -> None:
    page = browser.new_page()
    page.goto((site / "runs" / "task_000" / "synthetic-0.html").as_uri())
    steps = page.locator("#steps > section.step")
    assert steps.count() == 60 and page.locator("#steps > section.step:visible").count() == 25
    page.get_by_role("button", name="show all").click()
    assert page.locator("#steps > section.step:visible").count() == 60
    flagged = page.locator("section.flag-integrity")
    assert flagged.count() == 1 and flagged.is_visible()
    assert page.locator("section.flag-integrity .badge.bad").first.inner_text() == "integrity"
    assert page.locator("svg.chart").first.is_visible(), "AS over steps"
    diff = page.locator("#step-3 pre.diff")
    assert diff.count() == 1 and diff.locator("span.add").count() >= 1
    page.screenshot(path=str(tmp_path / "run.png"), full_page=False)
    _png_ok(tmp_path / "run.png")
    # The summary's link to the integrity step lands on it.
    page.goto((site / "runs" / "task_000" / "synthetic-0.html").as_uri() + "#step-3")
    assert page.locator("#step-3").is_visible()


def test_task_page_renders_with_charts_and_sources(site: Path, browser, tmp_path: Path) -> None:
    page = browser.new_page()
    page.goto((site / "tasks" / "task_001.html").as_uri())
    assert page.locator("#per-subgraph tbody tr").count() == 5, "four subgraphs and the task AS"
    assert page.locator("#per-subgraph thead th").count() == 5, "subgraph, Inductor and three models"
    chart = page.locator("svg.chart g.series")
    assert chart.count() == 4, "three models and Inductor's ES(t)"
    assert page.locator("pre.source").first.is_visible()
    page.locator("#runs tbody tr a").first.click()
    page.wait_for_load_state("load")
    assert "/runs/task_001/" in page.url
    page.go_back()
    page.screenshot(path=str(tmp_path / "task.png"), full_page=True)
    _png_ok(tmp_path / "task.png")
