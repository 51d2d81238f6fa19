"""Write the shipped tasks (PassNet task layout) and ``manifest.json``.

Layout, beside this file::

    tasks/task_000/graph_list.txt        graphs/0, graphs/1, ...
    tasks/task_000/graphs/0/model.py     a GraphNet sample: model.py, weight_meta.py,
    tasks/task_000/graphs/0/weight_meta.py   graph_net.json (model_name, source, variant)
    manifest.json                        {"version", "machine", "torch_version", "generated_at",
                                          "stats", "architectures", "tasks": [...]}

Each manifest task row: ``id``, ``category``, ``op_sequence`` (the harness's static analysis of
its first subgraph), ``source_models`` (the architectures its subgraphs were taken from),
``found_in_models`` (every architecture where an identical subgraph was cut), ``domains``,
``dtypes``, ``inductor_speedup``
(geometric mean of eager time / Inductor time), ``inductor_slower_fraction``, ``long_tail``,
and ``subgraphs``: ``name``, ``source_model``, ``found_in``, ``variant``, ``shapes`` (per argument),
``dtypes``, ``eager_us``, ``inductor_us`` (medians, microseconds), their quartiles,
``inductor_kernels`` and ``hash``.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .cut import Candidate
from .plan import PlannedTask
from .sample import write_sample
from .select import speedup

MANIFEST_VERSION = 1
#: Where the shipped tasks and manifest live (inside the installed package).
PACKAGE_DIR = Path(__file__).resolve().parent


def machine_info(threads: int) -> dict[str, Any]:
    """The machine baselines were measured on: CPU model, cores, threads used, OS."""
    from passagent.tools.evaluation.evaluate import device_name

    return {"device": "cpu", "name": device_name("cpu"), "cores": os.cpu_count(), "threads": threads,
            "platform": platform.platform(), "python": sys.version.split()[0]}


def _subgraph_row(name: str, c: Candidate, row: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "source_model": c.source["arch"],
        "found_in": c.source.get("models", [c.source["arch"]]),
        "variant": c.source["variant"],
        "shapes": c.shapes,
        "dtypes": c.dtypes,
        "eager_us": row["eager_us"],
        "inductor_us": row["inductor_us"],
        "eager_iqr_us": [row["eager_q1_us"], row["eager_q3_us"]],
        "inductor_iqr_us": [row["inductor_q1_us"], row["inductor_q3_us"]],
        "inductor_kernels": row["kernels"],
        "speedup": round(speedup(row), 4),
        "hash": c.hash,
    }


def task_row(task_id: str, p: PlannedTask, subgraphs: list[dict[str, Any]]) -> dict[str, Any]:
    """The manifest row of one shipped task."""
    slower = sum(1 for s in subgraphs if s["inductor_us"] > s["eager_us"])
    return {
        "id": task_id,
        "category": p.category,
        "op_sequence": list(p.kept[0].ops),
        "source_models": p.models,
        "found_in_models": sorted({m for c in p.kept for m in c.source.get("models", [c.source["arch"]])}),
        "domains": sorted({c.source["domain"] for c in p.kept}),
        "dtypes": sorted({d for c in p.kept for d in c.dtypes}),
        "num_subgraphs": len(subgraphs),
        "group_key": p.group.key[:16],
        "inductor_speedup": round(p.speedup, 4),
        "inductor_slower_fraction": round(slower / len(subgraphs), 4),
        "long_tail": p.long_tail,
        "subgraphs": subgraphs,
    }


def task_order(tasks: list[PlannedTask]) -> list[PlannedTask]:
    """Shipping order (and so ids): by category, then operator sequence, then group key."""
    cat = {"fusible": 0, "typical": 1, "sole": 2}
    return sorted(tasks, key=lambda p: (cat.get(p.category, 9), p.kept[0].ops, p.group.key))


def write_tasks(tasks: list[PlannedTask], out_dir: Path, header: dict[str, Any]) -> dict[str, Any]:
    """Replace ``out_dir/tasks/task_*`` and ``out_dir/manifest.json`` with ``tasks``.

    The new tasks are written to a temporary folder first and swapped in, so an interrupted
    write never leaves a half-written benchmark.

    Args:
        tasks: the shipped tasks (kept members and their measurement rows filled).
        out_dir: the folder holding ``tasks/`` and ``manifest.json``.
        header: top-level manifest fields (``machine``, ``stats``, ``architectures``, ...).

    Returns:
        The manifest written.
    """
    staging = out_dir / "tasks.staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    rows = []
    for n, p in enumerate(task_order(tasks)):
        tid = f"task_{n:03d}"
        tdir = staging / tid
        subs = []
        for i, (c, r) in enumerate(zip(p.kept, p.rows)):
            name = f"graphs/{i}"
            info = {"model_name": c.source["arch"], "source": c.source["model_source"], "domain": c.source["domain"],
                    "variant": c.source["variant"], "category": p.category, "graph_hash": c.hash}
            write_sample(tdir / name, c.code, c.metas, info)
            subs.append(_subgraph_row(name, c, r))
        (tdir / "graph_list.txt").write_text("".join(f"{s['name']}\n" for s in subs))
        rows.append(task_row(tid, p, subs))
    manifest = {
        "version": MANIFEST_VERSION,
        **header,
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "tasks": rows,
    }
    tasks_dir = out_dir / "tasks"
    old = out_dir / "tasks.old"
    shutil.rmtree(old, ignore_errors=True)
    if tasks_dir.exists():
        tasks_dir.rename(old)
    staging.rename(tasks_dir)
    shutil.rmtree(old, ignore_errors=True)
    tmp = out_dir / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    tmp.replace(out_dir / "manifest.json")
    return manifest


def load_manifest(out_dir: Path = PACKAGE_DIR) -> dict[str, Any]:
    """The whole manifest (``{}`` when none is shipped)."""
    path = out_dir / "manifest.json"
    return json.loads(path.read_text()) if path.is_file() else {}
