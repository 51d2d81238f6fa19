"""Where default Inductor leaves eager's precision, per subgraph: the divergence report of
``show_baseline`` (``tools/inspection/divergence.py``) over a task list, with what each search cost.

For every subgraph of every task, the IR inspection runs in its own process (as the agent's
``inspect_ir`` / ``show_baseline`` run it, one CPU thread, a fresh cache so nothing is served from
an earlier run) and, where default Inductor fails the headline level t=-5, searches for the first
node of the Dynamo graph whose compiled value leaves the level it fails. Prints one Markdown row
per subgraph that fails t=-5 (Inductor's level, the node, its operation, its error, the node
before it, compiles and seconds) and a summary line.

    python benchmarks/divergence_report.py [--tasks task_000,task_002,...] [--device cpu] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from passagent.tools.inspection.ir import inspect_isolated
from passagent.tools.tasks.loader import load_task

DEFAULT_TASKS = "task_000,task_001,task_002,task_003,task_004,task_005"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", default=DEFAULT_TASKS, help="comma-separated task ids or folders")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", type=Path, help="also write the rows as JSON")
    a = ap.parse_args()
    rows: list[dict] = []
    print("| task | subgraph | dtype | Inductor correct from | node | op | node's level | max abs err | node before | compiles | search s | inspection s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="passagent-divergence-") as tmp:
        for task_id in a.tasks.split(","):
            task = load_task(task_id)
            for i, sg in enumerate(task.subgraphs):
                t0 = time.perf_counter()
                ir = inspect_isolated(task.path, i, sg.digest, device=a.device, cache_root=Path(tmp))
                wall = time.perf_counter() - t0
                err, d = ir.get("inductor_error") or {}, ir.get("inductor_divergence")
                row = {"task": task.id, "subgraph": i, "dtypes": sorted(set(sg.dtypes)), "inductor_min_t": err.get("min_correct_t"),
                       "divergence": d, "inspection_s": round(wall, 2)}
                rows.append(row)
                if d is None:
                    continue
                print(f"| {task.id} | {i} | {','.join(row['dtypes'])} | {err.get('min_correct_t')} | {d['node']} | {d['op']} | "
                      f"{d['min_correct_t']} | {d['max_abs'] if d['max_abs'] is None else format(d['max_abs'], '.3g')} | {d['within']} | "
                      f"{d['compiles']} | {d['wall_s']:.1f} | {wall:.1f} |", flush=True)
    searched = [r for r in rows if r["divergence"]]
    found = [r for r in searched if r["divergence"]["node"]]
    secs = [r["divergence"]["wall_s"] for r in searched]
    print(f"\n{len(rows)} subgraphs; default Inductor fails t=-5 on {len(searched)}; a diverging node named on {len(found)}; "
          f"search median {statistics.median(secs) if secs else 0:.1f} s, max {max(secs, default=0):.1f} s, "
          f"compiles median {statistics.median([r['divergence']['compiles'] for r in searched]) if searched else 0}")
    if a.out:
        a.out.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
