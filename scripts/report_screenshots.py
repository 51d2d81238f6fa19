"""Screenshots of a report site's pages (leaderboard, one task page, one trajectory) for the docs.

Usage::

    python scripts/report_screenshots.py RUNS_DIR/report/html docs/images [--task TASK] [--run TASK/MODEL]

Uses the system Chromium through Playwright (``passagent.agent.report.html.browser``); writes
``report_leaderboard.png``, ``report_task.png`` and ``report_trajectory.png`` (1200 px wide,
cut at ``--height`` px so they stay small).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _quantize(path: Path, colors: int) -> None:
    """Reduce a screenshot to a ``colors``-entry palette (flat page colours survive; a third of the
    bytes). Left as is where Pillow is missing."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        im.convert("RGB").quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", type=Path, help="the site folder (with index.html)")
    ap.add_argument("out", type=Path, help="where the PNGs go")
    ap.add_argument("--task", help="task id of the task page (default: the first)")
    ap.add_argument("--run", help="TASK/MODEL of the trajectory page (default: the largest run page)")
    ap.add_argument("--height", type=int, default=1100, help="pixels of each page captured from its top")
    ap.add_argument("--colors", type=int, default=128, help="palette size the PNGs are reduced to (Pillow; 0: keep RGB)")
    args = ap.parse_args(argv)

    from passagent.agent.report.html.browser import chromium, unavailable

    reason = unavailable()
    if reason:
        print(f"error: {reason}", file=sys.stderr)
        return 2
    index = args.site / "index.html"
    if not index.is_file():
        print(f"error: {index}: no such file (run passagent report RUNS_DIR --html first)", file=sys.stderr)
        return 2
    tasks = sorted((args.site / "tasks").glob("*.html"))
    task = args.site / "tasks" / f"{args.task}.html" if args.task else tasks[0]
    runs = sorted((args.site / "runs").rglob("*.html"), key=lambda p: -p.stat().st_size)
    run = args.site / "runs" / f"{args.run}.html" if args.run else runs[0]
    args.out.mkdir(parents=True, exist_ok=True)
    with chromium(viewport=(1200, args.height)) as ctx:
        page = ctx.new_page()
        for name, path in (("report_leaderboard", index), ("report_task", task), ("report_trajectory", run)):
            page.goto(path.as_uri(), wait_until="load")
            shot = args.out / f"{name}.png"
            page.screenshot(path=str(shot), full_page=False)
            if args.colors:
                _quantize(shot, args.colors)
            print(f"{shot}: {path.relative_to(args.site)} ({shot.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
