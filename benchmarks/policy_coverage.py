"""Which built-in tasks the built-in offline policy (``--model builtin``) would evaluate a pass on.

For every built-in task (``bench/tasks/task_XXX``) and each of its subgraphs (up to the 8 the
policy inspects), capture the Dynamo FX graph exactly as
:func:`passagent.tools.inspection.ir.inspect_subgraph` records it (same synthesized inputs, same node
table: ``fx_code`` and ``fx_nodes``), but without compiling it with Inductor, which is all the
recipes read; then ask the recipe catalogue (:func:`passagent.agent.builtin.recipes.propose_rules`)
for drafts, and apply the policy's own withholding rule
(:func:`passagent.agent.builtin.policy.candidate_drafts`: a draft whose replacement would run the
original ops on one of the task's subgraphs is not proposed). A task is *covered* when at least
one remaining draft comes from a recipe that changes the ATen graph (``changes_aten``): the policy
evaluates a pass there; elsewhere it finishes without evaluating anything (clean-up drafts alone
are never evaluated). Withheld drafts are listed in their own column.

    python benchmarks/policy_coverage.py                  # every built-in task
    python benchmarks/policy_coverage.py --tasks task_082 task_032
    python benchmarks/policy_coverage.py --all-rows       # also list tasks with no ATen-changing draft
    python benchmarks/policy_coverage.py --device cuda    # with generated Triton kernels (CUDA only)
    python benchmarks/policy_coverage.py --ir-cache /tmp/irs   # keep the captured graphs: a second run reads them

Prints a Markdown table (task id, long_tail, ATen-changing recipes proposed, clean-up recipes, withheld)
and a summary line with the counts. CPU only; about a second per subgraph.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import torch

from passagent.agent.builtin.policy import MAX_INSPECTED, candidate_drafts
from passagent.agent.builtin.recipes import CATALOGUE
from passagent.tools.tasks.builtin import builtin_tasks_dir, load_manifest
from passagent.tools.tasks.inputs import synthesize_inputs
from passagent.tools.inspection.ir import dynamo_fx_ir
from passagent.tools.tasks.loader import load_task
from passagent.tools.evaluation.steps import build_module

CHANGES_ATEN = {r.name: r.changes_aten for r in CATALOGUE}


def capture_ir(task_path: str, index: int) -> dict[str, Any]:
    """``fx_code`` and ``fx_nodes`` of subgraph ``index`` as ``inspect_subgraph`` records them (no Inductor)."""
    task = load_task(task_path)
    sg = task.subgraphs[index]
    dev = torch.device("cpu")
    args = synthesize_inputs(sg, 0, device=dev)
    return dynamo_fx_ir(build_module(sg, dev, f"coverage_{index}"), args, index=index, name=sg.name)


def task_irs(task_id: str, cache: Path | None = None) -> dict[int, dict[str, Any]]:
    """Subgraph index -> captured IR for the first :data:`MAX_INSPECTED` subgraphs of a built-in task.

    With ``cache`` (a folder), the IRs are read from ``cache/<task_id>.json`` when it exists and
    written there after a capture: the recipes read nothing else, so a second run over the same
    tasks and torch version skips Dynamo (which is most of the time).
    """
    path = builtin_tasks_dir() / task_id
    file = cache / f"{task_id}.json" if cache is not None else None
    if file is not None and file.is_file():
        return {int(k): v for k, v in json.loads(file.read_text()).items()}
    count = min(len(load_task(str(path)).subgraphs), MAX_INSPECTED)
    irs = {i: capture_ir(str(path), i) for i in range(count)}
    if file is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps({str(k): v for k, v in irs.items()}))
    return irs


def task_drafts(task_id: str, device: str = "cpu", cache: Path | None = None
                ) -> tuple[list[str], list[str], list[str], int]:
    """(ATen-changing recipes, clean-up recipes, withheld recipes, subgraphs read) the policy would
    see for a task evaluated on ``device`` (generated Triton kernels are proposed for CUDA devices only).
    ``cache``: see :func:`task_irs`."""
    irs = task_irs(task_id, cache)
    count = len(irs)
    drafts, withheld = candidate_drafts(irs, device)
    changing: list[str] = []
    cleanup: list[str] = []
    for d in drafts:
        if d.rule_name not in withheld:
            (changing if CHANGES_ATEN.get(d.recipe, True) else cleanup).append(d.recipe)
    return changing, cleanup, [d.recipe for d, _where in withheld.values()], count


def _counted(names: list[str]) -> str:
    out = []
    for name in dict.fromkeys(names):
        k = names.count(name)
        out.append(f"{name} x{k}" if k > 1 else name)
    return ", ".join(out) or "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="*", help="task ids, space- or comma-separated (default: every built-in task)")
    parser.add_argument("--all-rows", action="store_true", help="also list tasks without an ATen-changing draft")
    parser.add_argument("--device", default="cpu", help="the device the passes would run on: cuda adds generated "
                        "Triton kernels (the graphs are still captured on the CPU)")
    parser.add_argument("--ir-cache", type=Path, help="folder of captured FX graphs (<task>.json): read when "
                        "present, written after a capture; a stale folder (another torch) must be deleted by hand")
    opts = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    manifest = {row["id"]: row for row in load_manifest()}
    ids = [t for item in opts.tasks or [] for t in item.split(",") if t.strip()] or sorted(manifest)
    rows = []
    start = time.perf_counter()
    for task_id in ids:
        try:
            changing, cleanup, withheld, count = task_drafts(task_id, opts.device, opts.ir_cache)
            error = ""
        except Exception as exc:  # noqa: BLE001 - report the task and go on
            changing, cleanup, withheld, count, error = [], [], [], 0, f"{type(exc).__name__}: {exc}"[:80]
        rows.append((task_id, bool(manifest.get(task_id, {}).get("long_tail")), changing, cleanup, withheld, count,
                     error))
        print(f"{task_id}: {_counted(changing)}{' | ' + error if error else ''}", file=sys.stderr, flush=True)
    print("| task | long_tail | subgraphs | ATen-changing recipes | clean-up recipes | withheld |")
    print("|---|---|---|---|---|---|")
    for task_id, long_tail, changing, cleanup, withheld, count, error in rows:
        if changing or opts.all_rows or error:
            print(f"| {task_id} | {'yes' if long_tail else 'no'} | {count} | {_counted(changing)} | "
                  f"{_counted(cleanup)}{' (error: ' + error + ')' if error else ''} | {_counted(withheld)} |")
    covered = [r for r in rows if r[2]]
    print(f"\n{len(covered)} of {len(rows)} tasks get an ATen-changing draft "
          f"({sum(r[1] for r in covered)} of them long-tail; "
          f"{sum(r[1] for r in rows)} long-tail tasks in all); {time.perf_counter() - start:.0f} s.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
