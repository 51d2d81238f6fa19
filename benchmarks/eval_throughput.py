"""Evaluation throughput on one device: lease-held seconds, wall seconds and evaluations per device-hour.

Runs the same evaluations twice, ``--workers`` at a time, all sharing one device through the
device lease (as a sweep does), once per arm:

* ``before``: ``EvalOptions(lease_scope="evaluation", compile_before_lease=False)``, the lease
  around the whole evaluation (process start, ``import torch``, Inductor compiles, timing), and timing that stops on each
  variant's own median only (``TimingConfig.paired_ci=None``) with the device's default budget
  (``--timing-budget`` applies to the other arms);
* ``after``: the defaults: ``lease_scope="device"``, the lease taken only once the worker is ready
  (:mod:`passagent.tools.process.lease_gate`), and timing that also stops once every pair's median
  per-round ratio is known (``TimingConfig.for_device``'s ``paired_ci``);
* ``warm``: as ``after``, on the cache root ``after`` left behind (Inductor's compiled graphs and
  kernels, cached baselines): the same evaluations again with warm caches. Run it after ``after``.
  On a GPU ``after`` and ``warm`` compile before the lease (``EvalOptions.compile_before_lease``'s
  default there, :mod:`passagent.tools.process.compile_ahead`);
* ``warm_in_lease``: as ``warm`` (``after``'s caches), with every compile under the lease
  (``compile_before_lease=False``): the pair ``warm`` / ``warm_in_lease`` is what compiling ahead gains.
* ``inspect``: not evaluations but the IR inspections an agent starts with: for each job's task,
  one inspection process for all its subgraphs (FX graph, post-grad graph, Inductor's output code,
  then the profile), as ``inspect_ir`` runs it in a sweep: everything but the profile before the
  lease (:func:`passagent.tools.inspection.ir.inspect_isolated` with a gate), on an empty inspection cache
  and ``after``'s Inductor cache when ``after`` ran first (else its own). Its row gives the lease
  held per inspection (the profile alone) and the wall time per inspection.

``before`` and ``after`` start from their own empty cache roots (no Inductor artifacts, no cached
baselines), so neither profits from the other's compiles. The jobs: the shared tasks with an example pass
(b511, 623d; on CUDA also built-in task_035 with its Triton kernel), then ``--builtin`` built-in
long-tail tasks evaluated with the honest ``fused_silu`` test pass (it matches where a graph
computes ``x * sigmoid(x)``; elsewhere the evaluation is a "matched nothing" failure, which still
compiles and times both baselines). After ``--arm-budget`` seconds no new evaluation starts in
an arm; those in flight finish.

Read from each arm's ``leases.jsonl`` (:func:`passagent.tools.process.device_lease.read_leases`): the
lease seconds per evaluation and what they were spent on (``in_lease_s``), and evaluations per
device-hour = evaluations / (seconds the device was leased) * 3600, the rate one device reaches
when evaluations keep it leased back to back. Also per evaluation: wall seconds from start to
result (``EvalResult.wall_s`` plus the wait for a lease), and the arm's evaluations per wall-hour.

    python benchmarks/eval_throughput.py --device cuda --workers 4 --builtin 10     # the GPU figure
    python benchmarks/eval_throughput.py --device cpu --workers 2 --builtin 0       # a quick CPU run
    python benchmarks/eval_throughput.py --arms after,warm,inspect                  # and the IR inspections' lease

(The ``inspect`` row's "timing in lease" is the profile, its rates are inspections, not evaluations.)

Prints a Markdown table last (``--out DIR``: also the JSON, and each arm's lease log).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared"))
EXAMPLES = REPO / "examples" / "passes"
GENERIC_PASS = REPO / "tests" / "passes" / "honest" / "fused_silu.py"
ARMS = {"before": "evaluation", "after": "device", "warm": "device", "warm_in_lease": "device", "inspect": "profile"}


def jobs(device: str, builtin: int) -> list[tuple[str, Path, Path]]:
    """``(label, task path, pass path)`` of every evaluation of an arm."""
    from passagent.tools.tasks.builtin import load_manifest, resolve_builtin

    typical = SHARED / "data" / "passbench" / "typical"
    out = []
    for prefix, pass_path in (("b511", EXAMPLES / "b511_pooler_dir"), ("623d", EXAMPLES / "623d_drop_dead_rand.py")):
        found = next(typical.glob(f"{prefix}*"), None)
        if found is not None:
            out.append((prefix, found, pass_path))
    if device.startswith("cuda"):  # a Triton kernel: CUDA only
        out.append(("task_035", REPO / "bench" / "tasks" / "task_035", EXAMPLES / "task035_rms_norm_triton"))
    taken = {label for label, _t, _p in out}
    for row in [r for r in load_manifest() if r.get("long_tail") and r["id"] not in taken][:builtin]:
        out.append((row["id"], Path(resolve_builtin(row["id"])), GENERIC_PASS))
    return out


def _one(label: str, task_path: str, pass_path: str, options: Any) -> dict[str, Any]:
    """One evaluation in a pool process (a fresh interpreter, as a sweep's run is)."""
    from passagent.tools.evaluation.evaluate import evaluate_pass
    from passagent.tools.tasks.loader import load_task

    task = load_task(task_path)
    t0 = time.monotonic()
    result = evaluate_pass(task, pass_path, options)
    return {"label": label, "task": task.id, "subgraphs": len(task.subgraphs), "wall_s": time.monotonic() - t0,
            "statuses": sorted({s.status for s in result.subgraphs}), "aggregated": result.scores.aggregated,
            "compiles_in_lease": sum(s.compiles_in_lease or 0 for s in result.subgraphs)}


def _inspect(label: str, task_path: str, device: str, cache_root: str, lock_dir: str) -> dict[str, Any]:
    """One task's IR inspection in a pool process: every subgraph in one inspection process, the
    profiles under a lease (as ``inspect_ir`` does in a sweep)."""
    from passagent.tools.inspection.ir import inspect_isolated
    from passagent.tools.process.lease_gate import LeaseGate
    from passagent.tools.tasks.loader import load_task

    task = load_task(task_path)
    gate = LeaseGate([device], Path(lock_dir), {"task": task.id, "purpose": "inspect_ir"})
    others = [(i, sg.digest) for i, sg in enumerate(task.subgraphs)][1:]
    t0 = time.monotonic()
    inspect_isolated(task_path, 0, task.subgraphs[0].digest, device=device, cache_root=Path(cache_root), also=others,
                     gate=gate)
    return {"label": label, "task": task.id, "subgraphs": len(task.subgraphs), "wall_s": time.monotonic() - t0,
            "statuses": ["inspected"], "aggregated": None}


def run_arm(arm: str, device: str, workers: int, work: list[tuple[str, Path, Path]], root: Path, arm_budget: float,
            timing_budget: float | None) -> dict[str, Any]:
    from passagent.tools.process.device_lease import busy_profile, read_leases
    from passagent.tools.evaluation.evaluate import EvalOptions

    from passagent.tools.measure.timing import TimingConfig

    cache, locks = root / f"cache-{'after' if arm.startswith('warm') else arm}", root / f"locks-{arm}"
    if arm == "inspect" and (root / "cache-after").is_dir():
        # after's compiled graphs, a fresh inspection cache: what an agent's first step finds in a sweep.
        cache = root / "cache-inspect"
        shutil.copytree(root / "cache-after" / "inductor", cache / "inductor", dirs_exist_ok=True)
    timing = TimingConfig.for_device(device, timing_budget)
    if arm == "before":
        # The configuration before the lease split: the device's default budget (``--timing-budget``
        # is a change under test, so it applies to the other arms only) and no ratio rule.
        timing = dataclasses.replace(TimingConfig.for_device(device), paired_ci=None)
    scope = "device" if arm == "inspect" else ARMS[arm]  # the inspect arm evaluates nothing
    options = EvalOptions(device=device, device_pool=[device], lock_dir=locks, cache_root=cache, lease_scope=scope,
                          timing=timing, compile_before_lease=False if arm in ("before", "warm_in_lease") else None)
    results, errors = [], []
    t0 = time.monotonic()
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        pending = list(work)
        futures = {}
        while pending or futures:
            while pending and len(futures) < workers and time.monotonic() - t0 < arm_budget:
                label, task_path, pass_path = pending.pop(0)
                if arm == "inspect":
                    future = pool.submit(_inspect, label, str(task_path), device, str(cache), str(locks))
                else:
                    future = pool.submit(_one, label, str(task_path), str(pass_path), options)
                futures[future] = label
            if not futures:
                break  # the arm's budget is spent: nothing more starts
            done = next(as_completed(futures))
            label = futures.pop(done)
            try:
                results.append(done.result())
                r = results[-1]
                print(f"[{arm}] {label}: {r['wall_s']:.1f} s, {','.join(r['statuses'])}", flush=True)
            except Exception as exc:  # noqa: BLE001 - one broken evaluation must not end the benchmark
                errors.append(f"{label}: {type(exc).__name__}: {str(exc)[:200]}")
                print(f"[{arm}] {label}: {errors[-1]}", flush=True)
    wall = time.monotonic() - t0
    # Evaluations' leases (no purpose), or the inspections' profiles.
    leases = [r for r in read_leases(locks) if r.get("purpose") == ("inspect_ir" if arm == "inspect" else None)]
    held = [r["end"] - r["start"] for r in leases]
    phases: dict[str, float] = {}
    for r in leases:
        for name, seconds in (r.get("in_lease_s") or {}).items():
            phases[name] = phases.get(name, 0.0) + seconds
    n = len(results)
    return {
        "arm": arm, "lease_scope": ARMS[arm], "evaluations": n, "errors": errors, "wall_s": wall, "results": results,
        "leases": len(leases), "lease_held_s": held, "lease_wait_s": [r.get("wait_s", 0.0) for r in leases],
        "in_lease_s_total": phases, "before_lease_compile_s": [(r.get("before_lease_s") or {}).get("compile", 0.0) for r in leases],
        "busy": busy_profile(leases) if leases else None,
        "evals_per_device_hour": n / sum(held) * 3600 if held and n else 0.0,
        "evals_per_wall_hour": n / wall * 3600 if wall and n else 0.0,
        "lease_log": str(locks / "leases.jsonl"),
    }


def _compile_s(phases: dict[str, float]) -> float:
    # Default Inductor's and the candidate's steps up to their first correct run (compile and first
    # run where they compile under the lease; the first run alone where they were compiled before it).
    return sum(v for k, v in phases.items() if k == "inductor" or k.startswith("candidate_") or k == "device_setup")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda:0", help="the one device every evaluation leases (cuda:0, cpu)")
    ap.add_argument("--workers", type=int, default=4, help="evaluations at once (each waits for the device lease)")
    ap.add_argument("--builtin", type=int, default=10, help="built-in long-tail tasks after the shared ones")
    ap.add_argument("--arms", default="before,after", help="comma-separated, run in this order: before, after, warm (after's cache "
                    "again), warm_in_lease (after's cache, compiles under the lease), inspect (IR inspections, on after's "
                    "Inductor cache)")
    ap.add_argument("--arm-budget", type=float, default=120.0, help="seconds after which an arm starts no new evaluation")
    ap.add_argument("--timing-budget", type=float, default=None, help="seconds of timed calls per subgraph (default: the device's)")
    ap.add_argument("--out", type=Path, default=Path(os.environ["OUT"]) if os.environ.get("OUT") else None)
    args = ap.parse_args()
    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if bad := [a for a in arms if a not in ARMS]:
        raise SystemExit(f"unknown --arms {bad}; choose from {', '.join(ARMS)}")
    work = jobs(args.device, args.builtin)
    print(f"{len(work)} evaluations per arm: {', '.join(label for label, _t, _p in work)}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="passagent-throughput-") as tmp:
        for arm in arms:
            rows.append(run_arm(arm, args.device, args.workers, work, Path(tmp), args.arm_budget, args.timing_budget))
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                log = Path(rows[-1]["lease_log"])
                if log.is_file():
                    shutil.copy(log, args.out / f"leases-{arm}.jsonl")

    from passagent.tools.evaluation.evaluate import device_name

    lines = [f"Evaluation throughput on {device_name(args.device)}, {args.workers} evaluations at once on {args.device}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; before and after each from an empty cache, warm on after's", "",
             "| arm | lease covers | evaluations | lease held per eval, median (s) | mean (s) | compile before lease per eval (s) "
             "| compile/first runs in lease per eval (s) | held-out step in lease per eval (s) "
             "| timing in lease per eval (s) | wall per eval, median (s) | evals per device-hour | evals per wall-hour |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        held, n = r["lease_held_s"], max(1, r["leases"])
        walls = [x["wall_s"] for x in r["results"]]
        lines.append(
            f"| {r['arm']} | {r['lease_scope']} | {r['evaluations']} | {statistics.median(held) if held else 0:.1f} | "
            f"{statistics.mean(held) if held else 0:.1f} | {sum(r['before_lease_compile_s']) / n:.1f} | "
            f"{_compile_s(r['in_lease_s_total']) / n:.1f} | {r['in_lease_s_total'].get('heldout_shape', 0.0) / n:.1f} | "
            f"{r['in_lease_s_total'].get('timing', r['in_lease_s_total'].get('profile', 0.0)) / n:.1f} | {statistics.median(walls) if walls else 0:.1f} | "
            f"{r['evals_per_device_hour']:.0f} | {r['evals_per_wall_hour']:.0f} |")
    by_arm = {r["arm"]: r for r in rows}
    if "before" in by_arm and "after" in by_arm and by_arm["before"]["evals_per_device_hour"]:
        ratio = by_arm["after"]["evals_per_device_hour"] / by_arm["before"]["evals_per_device_hour"]
        lines += ["", f"evaluations per device-hour, after / before: {ratio:.2f}x"]
    if "warm" in by_arm and "before" in by_arm and by_arm["before"]["evals_per_device_hour"]:
        ratio = by_arm["warm"]["evals_per_device_hour"] / by_arm["before"]["evals_per_device_hour"]
        lines += [f"evaluations per device-hour, warm / before: {ratio:.2f}x"]
    if "warm" in by_arm and "warm_in_lease" in by_arm and by_arm["warm_in_lease"]["evals_per_device_hour"]:
        gain = by_arm["warm"]["evals_per_device_hour"] / by_arm["warm_in_lease"]["evals_per_device_hour"]
        lines += [f"evaluations per device-hour, compiles before the lease / under it (warm caches): {gain:.2f}x"]
    for r in rows:
        if r["errors"]:
            lines += ["", f"{r['arm']} errors: " + "; ".join(r["errors"])]
    text = "\n".join(lines)
    if args.out:
        (args.out / "eval_throughput.json").write_text(json.dumps(rows, indent=1, default=str))
        (args.out / "eval_throughput.md").write_text(text + "\n")
    print("\n" + text)


if __name__ == "__main__":
    main()
