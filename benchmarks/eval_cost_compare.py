"""An evaluation's cost on this tree and on an earlier checkout, side by side in one run.

Runs ``benchmarks/eval_wall_time.py`` (pre-started processes, ``--modes standby``) alternately on
the current tree and on ``--before`` (a checkout of an earlier commit, e.g. made with
``git worktree add /tmp/before <commit>``), ``--rounds`` times each, so both see the same machine
and load; prints each run's warm evaluations (wall time and, with ``--pool``, the device lease
held) and the medians with their ratio.

    git worktree add /tmp/before bbb3676
    python benchmarks/eval_cost_compare.py --before /tmp/before --task ../shared/data/passbench/typical/b511... \\
        --pass examples/passes/b511_pooler_dir --rounds 3
    python benchmarks/eval_cost_compare.py --before /tmp/before --device cuda --pool ...   # the GPU lease too

The earlier checkout is imported as ``passagent`` through a folder holding one symbolic link
(``PYTHONPATH``), so nothing is installed for it; its child processes inherit that path.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| standby \| warm \| ([\d.]+) \| (?:([\d.]+) \| [\d.]+ \| )?")


def run_one(checkout: Path, shim: Path | None, args: list[str]) -> list[tuple[float, float | None]]:
    """The warm rows of one ``eval_wall_time.py`` run of ``checkout``: (wall s, lease s or None)."""
    env = dict(os.environ)
    if shim is not None:
        env["PYTHONPATH"] = str(shim) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, str(checkout / "benchmarks" / "eval_wall_time.py"), "--modes", "standby", *args]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=REPO)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    rows = []
    for line in out.stdout.splitlines():
        m = ROW.match(line)
        if m:
            rows.append((float(m.group(1)), float(m.group(2)) if m.group(2) else None))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="a checkout of the earlier commit")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each, alternating")
    ap.add_argument("--task", type=Path)
    ap.add_argument("--pass", dest="pass_path", type=Path)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=2, help="warm evaluations per run")
    ap.add_argument("--pool", action="store_true", help="lease the device from a one-device pool (reports the lease held)")
    a = ap.parse_args()
    extra = ["--device", a.device, "--repeat", str(a.repeat)] + (["--pool"] if a.pool else [])
    if a.task:
        extra += ["--task", str(a.task.resolve())]
    if a.pass_path:
        extra += ["--pass", str(a.pass_path.resolve())]
    with tempfile.TemporaryDirectory(prefix="passagent-before-") as tmp:
        shim = Path(tmp)
        (shim / "passagent").symlink_to(a.before.resolve())
        results: dict[str, list[tuple[float, float | None]]] = {"before": [], "now": []}
        for r in range(a.rounds):
            for name, checkout, path in (("before", a.before.resolve(), shim), ("now", REPO, None)):
                rows = run_one(checkout, path, extra)
                results[name] += rows
                print(f"round {r + 1} {name}: " + ", ".join(f"{w:.1f} s" + (f" (lease {l:.1f} s)" if l is not None else "")
                                                           for w, l in rows), flush=True)
    print(f"\n{a.device}, {a.rounds} alternating runs of {a.repeat} warm evaluations each\n")
    print("| code | warm evaluations | wall median (s) | wall range (s) | lease median (s) |")
    print("|---|---:|---:|---|---:|")
    for name, rows in results.items():
        walls = [w for w, _l in rows]
        leases = [l for _w, l in rows if l is not None]
        print(f"| {name} | {len(rows)} | {statistics.median(walls):.1f} | {min(walls):.1f}-{max(walls):.1f} | "
              + (f"{statistics.median(leases):.1f}" if leases else "-") + " |")
    b, n = statistics.median(w for w, _ in results["before"]), statistics.median(w for w, _ in results["now"])
    print(f"\nwall now / before: {n / b:.2f}")
    lb = [l for _w, l in results["before"] if l is not None]
    ln = [l for _w, l in results["now"] if l is not None]
    if lb and ln:
        print(f"lease now / before: {statistics.median(ln) / statistics.median(lb):.2f}")


if __name__ == "__main__":
    main()
