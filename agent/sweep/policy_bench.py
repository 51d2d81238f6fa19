"""Run the built-in policy (``--model builtin``) over a task list and compare it with default Inductor.

For every task: ``passagent solve <task> --model builtin`` (the same loop, tools and harness a
model gets), then one table row:

* **Inductor AS**: default Inductor scored by the same protocol as a pass: AS against eager
  with Inductor's own correctness (its ``min_correct_t`` against the reference) from the
  evaluation the policy AS comes from, so the two share their timings (``EvalResult.inductor_scores``;
  a version the loop's confirmation re-evaluated is scored by its lower AS, and Inductor's comes
  from that evaluation; where nothing was scored, from the first evaluation that timed both baselines);
* **policy AS**: the run's best AS against eager (``best_as``; the failure penalty b = 0.1
  where nothing was evaluated: a task with no pass);
* **ratio**: policy AS / Inductor AS (the PassNet leaderboard's comparison);
* **correct@-5**: subgraphs of the best version correct at t = -5, beside Inductor's own count in
  the same evaluation (the benchmark's correctness bar: no lower than Inductor's);
* **ratio, no t=-5 regression**: the highest such ratio among the versions that fail no subgraph at
  t = -5 where Inductor is correct in any of their evaluations (each by its lower-AS evaluation);
  the run's best is such a version wherever one exists (``SolveConfig.discard_regressions``);
* **kept rules by family** (from the policy's summary; for a run the loop stopped early, from
  its best pass: ``Rewrite family: ...`` in each rule). The leaderboard scores a run's best
  evaluated version, which is a candidate the policy discarded when it kept nothing;
* **evaluations** and **wall time** (seconds, the whole solve).

The last lines give the geometric means over tasks and how many tasks got an evaluation.

    python benchmarks/policy_bench.py --tasks task_035 task_082 --timing-budget 0.1
    python benchmarks/policy_bench.py --tasks-file benchmarks/tasks/policy_gpu.txt --device cuda --max-wall 30
    python benchmarks/policy_bench.py --tasks-file benchmarks/tasks/policy_gpu.txt --device cuda --gpus 0,1,2,3
    python benchmarks/policy_bench.py --tasks-file benchmarks/tasks/policy_gpu.txt --device cuda --workers 4 \
        --json rows.json --resume
    python benchmarks/policy_bench.py --retabulate rows.json --out runs/policy_bench   # the table again, from the archive

With ``--gpus``, tasks run in parallel, one task per listed GPU at a time, each in a child process
of this script that sees that GPU alone (``CUDA_VISIBLE_DEVICES``); rows keep the list's order.
With ``--workers N``, N tasks run at once on each device (each listed GPU, or the one
``--device``), each in a child process; the children of one device share its device lease
(``EvalOptions.device_pool`` of that one device, lock folder ``<out>/locks/<device>``), so only their
device steps take turns while their compiles overlap (on a GPU they compile before the lease:
``EvalOptions.compile_before_lease``), as in ``passagent sweep --workers N --devices 0``.
A task timing under the lease while others compile on the host may time slower; per-round
ratios cancel most of that drift (see RESULTS, "Compiles before the device lease"). After such a
run the script prints the device leases of this run from the lock folders' ``leases.jsonl``:
evaluations (pass versions and the confirmation's re-evaluations, so more than the rows'
column, which counts versions; the line says how many were re-evaluations), ``check_pass`` runs
and IR inspections, lease seconds, evaluations per device-hour (evaluations / leased seconds),
new versions per device-hour, and how busy the devices were.
``--lease-scope evaluation`` runs the same sweep with the lease around each whole evaluation and
every compile under it (``EvalOptions(lease_scope="evaluation", compile_before_lease=False)``), the harness before its compiles left the lease; IR inspections
lease their profile alone either way. Two runs back to back, one per scope, give what the
device-step lease gains on the policy's own sweep (each from its own empty cache, so neither
reuses the other's compiles):

    T=task_001,task_002,task_003,task_004,task_006,task_011,task_012,task_020,task_025,task_028
    python benchmarks/policy_bench.py --tasks $T --device cuda --workers 4 --max-wall 90 \
        --out runs/scope-evaluation --cache-dir /tmp/cache-evaluation --lease-scope evaluation
    python benchmarks/policy_bench.py --tasks $T --device cuda --workers 4 --max-wall 90 \
        --out runs/scope-device --cache-dir /tmp/cache-device

With ``--json``, the rows are rewritten after every task (finished tasks only, in the list's
order); ``--resume`` keeps the rows already in that file (except error rows) and solves the
other tasks only, so a benchmark cut off by a time limit goes on where it stopped.

Tasks are built-in ids (``task_035``) or task folders (``$PASSAGENT_SHARED/data/passbench/typical/<hash>``;
environment variables in a ``--tasks-file`` line are expanded; ``$PASSAGENT_SHARED`` defaults to the
``shared`` folder beside the repository, as everywhere else).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from passagent.agent.builtin.drafts import FAMILIES
from passagent.agent.run.confirm import evaluation_of
from passagent.agent.run.loop import SolveConfig
from passagent.agent.run.solve import solve
from passagent.tools.process.device_lease import busy_profile, read_leases
from passagent.tools.evaluation.evaluate import EvalOptions
from passagent.tools.evaluation.results import inductor_task_scores
from passagent.tools.evaluation.schema import EvalResult, inductor_correct_at_headline
from passagent.tools.measure.scoring import DEFAULT_FAILURE_PENALTY, ScoringConfig

_FAMILY = re.compile(r"Rewrite family: ([a-z ]+)\.")
_KEPT = re.compile(r"Kept by family: ([^.]*)\.")


def inductor_as(result: EvalResult) -> float | None:
    """Default Inductor's AS against eager from one evaluation's timings and Inductor's own
    correctness (``EvalResult.inductor_scores``; recomputed by :func:`inductor_task_scores` for a
    result recorded without it); None when no subgraph has both baseline times."""
    if result.inductor_scores is not None:
        return result.inductor_scores.aggregated
    if not any("eager" in s.times and "inductor" in s.times for s in result.subgraphs):
        return None
    cfg = ScoringConfig(slowdown_penalty=result.config.slowdown_penalty, failure_penalty=result.config.failure_penalty)
    return inductor_task_scores(result.subgraphs, cfg, result.config.time_statistic).aggregated


def _run_dir(out: Path, result: dict[str, Any]) -> Path | None:
    return next(iter(out.glob(f"{result['run_id']}/*/builtin")), None)


def _events(run: Path) -> list[dict[str, Any]]:
    """The run's archived events (``events.jsonl``), in order."""
    return [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines() if line.strip()]


def kept_families(run: Path, summary: str = "") -> dict[str, list[str]]:
    """Family -> names of the rules the policy kept: from its finish summary (``Kept by family:
    ...``), else (a run the loop stopped, on patience or a budget) from the run's best pass."""
    out: dict[str, list[str]] = {f: [] for f in FAMILIES}
    m = _KEPT.search(summary)
    if m:
        for part in m.group(1).split("; "):
            family, _, names = part.partition(": ")
            out[family] = [n for n in names.split(", ") if n and n != "-"]
        return out
    best = run / "best_pass"
    order = best / "sorted_output_pass_rule_names.json"
    if not order.exists():
        return out
    for rule in json.loads(order.read_text()):
        m = _FAMILY.search((best / f"{rule}.py").read_text())
        out.setdefault(m.group(1) if m else "unlabelled", []).append(rule)
    return out


def correct_count(result: EvalResult | None) -> tuple[int | None, int | None]:
    """(candidate, default Inductor) counts of subgraphs correct at t = -5 in one evaluation;
    ``(None, None)`` where there is no evaluation."""
    if result is None:
        return None, None
    return (sum(1 for sg in result.subgraphs if sg.status == "correct"),
            sum(1 for sg in result.subgraphs if inductor_correct_at_headline(sg)))


def row_from_run(task: str, result: dict[str, Any], run: Path | None, baseline: str, wall: float) -> dict[str, Any]:
    """One table row from a finished solve: ``result`` is its result record (``solve``'s dict),
    ``run`` its archive folder (None: nothing was archived), ``baseline`` the evaluations'
    baseline, ``wall`` the solve's wall time in seconds. Raises KeyError where ``result`` lacks
    ``best_as``, ``evaluations`` or ``exit_reason``."""
    events = _events(run) if run else []
    evals = [(e.get("version"), EvalResult.model_validate(e["evaluation"])) for e in events if e.get("evaluation")]
    best = result["best_as"] if baseline == "eager" else (result.get("best_other_scores") or {}).get("aggregated")
    # Paired: Inductor's AS from the evaluation the policy's best AS came from (the same timings;
    # a confirmed version has two and keeps the lower AS: agent/run/confirm.py).
    found = evaluation_of(events, result.get("best_version"), result.get("best_as"))
    best_eval = EvalResult.model_validate(found) if found is not None else None
    ind = inductor_as(best_eval) if best_eval is not None else None
    if ind is None:  # nothing scored: the first evaluation that timed both baselines
        ind = next((a for a in (inductor_as(e) for _v, e in evals) if a is not None), None)
    policy = best if best is not None else DEFAULT_FAILURE_PENALTY
    # The highest ratio among versions that keep every subgraph Inductor gets right at t = -5 (the
    # correctness bar: correct@-5 no lower than Inductor's) in each of their evaluations, a
    # re-evaluated version by its lower-AS evaluation as the confirmation scores it.
    by_version: dict[Any, list[EvalResult]] = {}
    for v, e in evals:
        by_version.setdefault(v, []).append(e)
    clean = [min(es, key=lambda e: e.as_vs_eager() or 0.0).ratio_to_inductor()
             for es in by_version.values() if not any(e.regressions() for e in es)]
    clean = [r for r in clean if r is not None]
    correct, ind_correct = correct_count(best_eval)
    return {"task": task, "inductor_as": ind, "policy_as": policy, "ratio": policy / ind if ind else None,
            "ratio_no_regression": max(clean) if clean else None,
            "subgraphs": len(best_eval.subgraphs) if best_eval else None, "correct": correct, "inductor_correct": ind_correct,
            "families": kept_families(run, result.get("summary") or "") if run else {}, "evaluations": result["evaluations"],
            "wall_s": wall, "exit": result["exit_reason"], "summary": result.get("summary") or ""}


def retabulate(rows: list[dict[str, Any]], out: Path, baseline: str = "eager") -> list[dict[str, Any]]:
    """Rows re-derived from the runs archived under ``out`` (each run's ``result.json`` and events),
    keeping each old row's wall time: the table after a change to how rows are derived, without
    solving again. A task with no archived run keeps its old row, with a warning on stderr. Raises
    ValueError on a row without ``task``, and when no row's task has an archived run under ``out``
    (a wrong ``--out`` would otherwise reprint the old table as if re-derived)."""
    archived: dict[str, tuple[dict[str, Any], Path]] = {}
    for path in sorted(out.glob("*/*/builtin/result.json")):  # run ids sort by start time: the last run wins
        result = json.loads(path.read_text())
        archived[result["task_id"]] = (result, path.parent)
    fresh, found = [], 0
    for row in rows:
        if "task" not in row:
            raise ValueError(f"a row without 'task': {row}")
        key = Path(row["task"]).name
        hit = archived.get(key)
        if hit is None:
            print(f"{row['task']}: no archived run under {out}; its old row is kept", file=sys.stderr)
            fresh.append(row)
        else:
            found += 1
            fresh.append(row_from_run(row["task"], hit[0], hit[1], baseline, row.get("wall_s", 0.0)))
    if rows and not found:
        raise ValueError(f"no task of the rows has an archived run under {out} (runs are <out>/<run id>/<task>/builtin)")
    return fresh


def bench_task(task: str, out: Path, options: EvalOptions, config: SolveConfig) -> dict[str, Any]:
    """Solve one task with the built-in policy; the row's values (see the module docstring)."""
    start = time.perf_counter()
    result = solve(task, "builtin", out=out, config=config, eval_options=options)
    wall = time.perf_counter() - start
    return row_from_run(task, result, _run_dir(out, result), options.baseline, wall)


def lease_summary(locks: Path, since: float = 0.0) -> dict[str, Any] | None:
    """The device leases recorded under ``locks`` (a lock folder, or a folder of them) that started
    at or after ``since`` (seconds since the epoch): this run's, where the folder holds earlier ones.

    Unreadable lines of a log are skipped (:func:`passagent.tools.process.device_lease.read_leases`); a
    folder without logs gives None. Each lease is classed by the ``purpose`` its record names:
    ``inspect_ir`` (an IR inspection's profile), ``check_pass`` (the ``check_pass`` tool's run of
    the pass on the device), none or ``confirmation`` (an evaluation; ``confirmation`` marks the
    confirmation's re-evaluation of a version already evaluated, ``agent/run/confirm.py``). Returns
    None where there are none, else per class its count (``evaluations``, ``checks``,
    ``inspections``) and median lease (s), ``confirmations`` (how many of the evaluations were
    re-evaluations; leases logged before confirmations were marked count as versions),
    ``lease_s`` (seconds leased, every class, summed over devices),
    ``evaluation_lease_s`` (the evaluations' share of it), ``evaluations_per_device_hour``
    (evaluations / ``lease_s`` x 3600: the rate one device reaches on this sweep when leases follow
    each other without a gap, its checks and inspections included),
    ``evaluations_per_evaluation_hour`` (evaluations / ``evaluation_lease_s`` x 3600: the
    evaluations alone), ``versions_per_device_hour`` (evaluations less confirmations, over
    ``lease_s``: new versions evaluated per device-hour) and ``busy_fraction`` (share of the time
    from the first lease to the last in which some device was leased).
    """
    records = [r for r in read_leases(locks) if float(r["start"]) >= since]
    if not records:
        return None
    kinds = {"inspect_ir": "inspection", "check_pass": "check"}
    held: dict[str, list[float]] = {"evaluation": [], "check": [], "inspection": []}
    for r in records:
        held[kinds.get(r.get("purpose"), "evaluation")].append(float(r["end"]) - float(r["start"]))
    total = sum(sum(v) for v in held.values())
    evaluation_s = sum(held["evaluation"])
    n = len(held["evaluation"])
    confirmations = sum(1 for r in records if r.get("purpose") == "confirmation")
    busy = busy_profile(records)

    def median(xs: list[float]) -> float | None:
        return statistics.median(xs) if xs else None

    return {
        "evaluations": n, "confirmations": confirmations, "checks": len(held["check"]), "inspections": len(held["inspection"]),
        "lease_s": total, "evaluation_lease_s": evaluation_s,
        "evaluation_lease_median_s": median(held["evaluation"]), "check_lease_median_s": median(held["check"]),
        "inspection_lease_median_s": median(held["inspection"]),
        "evaluations_per_device_hour": n / total * 3600 if total > 0 else None,
        "evaluations_per_evaluation_hour": n / evaluation_s * 3600 if evaluation_s > 0 else None,
        "versions_per_device_hour": (n - confirmations) / total * 3600 if total > 0 else None,
        "busy_fraction": 1.0 - busy["fraction_with_devices_busy"].get(0, 0.0) if busy["window_s"] else None,
    }


def describe_leases(summary: dict[str, Any]) -> str:
    """One line for :func:`lease_summary`'s result."""
    def s(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f} s"

    def rate(x: float | None) -> str:
        return "-" if x is None else f"{x:.0f}"

    busy = summary["busy_fraction"]
    confirmations = summary.get("confirmations", "-")  # absent from summaries written before the marker
    return (f"device leases: {summary['evaluations']} evaluations ({confirmations} of them confirmations; "
            f"median {s(summary['evaluation_lease_median_s'])}), "
            f"{summary['checks']} check_pass runs (median {s(summary['check_lease_median_s'])}), "
            f"{summary['inspections']} IR inspections (median {s(summary['inspection_lease_median_s'])}), "
            f"{summary['lease_s']:.0f} s leased ({summary['evaluation_lease_s']:.0f} s by evaluations); "
            f"{rate(summary['evaluations_per_device_hour'])} evaluations per device-hour "
            f"({rate(summary['evaluations_per_evaluation_hour'])} per hour of evaluation leases; "
            f"{rate(summary.get('versions_per_device_hour'))} new versions per device-hour); "
            f"devices busy {'-' if busy is None else f'{busy:.0%}'} of the time")


def error_row(task: str, exit_reason: str, summary: str) -> dict[str, Any]:
    """The row of a task whose solve failed: no pass, scored the failure penalty b."""
    return {"task": task, "inductor_as": None, "policy_as": DEFAULT_FAILURE_PENALTY, "ratio": None, "families": {},
            "evaluations": 0, "wall_s": 0.0, "exit": exit_reason, "summary": summary[:200]}


def run_in_children(tasks: list[str], slots: list[tuple[str, dict[str, str], list[str]]], child_args: list[str],
                    parts: Path, done: dict[int, dict[str, Any]] | None = None,
                    on_row: Callable[[list[dict[str, Any] | None]], None] | None = None) -> list[dict[str, Any]]:
    """Solve ``tasks`` in parallel, one task at a time per slot: each in a child process of this
    script (``--tasks TASK --json PART`` plus ``child_args`` and the slot's own arguments).

    Args:
        slots: ``(label, environment overrides, extra arguments)`` per slot; a GPU's slot sets
            ``CUDA_VISIBLE_DEVICES``, a slot sharing its device's lease passes ``--lease-pool``.
        parts: folder for the children's one-row JSON files.
        done: rows already known by task index (``--resume``); those tasks are not solved again.
        on_row: called with the rows so far (None where not finished) after every task.

    Returns:
        The rows in the order of ``tasks``; a child that wrote no row gives :func:`error_row`.
    """
    parts.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any] | None] = [None] * len(tasks)
    for index, row in (done or {}).items():
        rows[index] = row
    pending = [(i, t) for i, t in enumerate(tasks) if rows[i] is None]
    lock = threading.Lock()

    def serve(label: str, env_extra: dict[str, str], extra: list[str]) -> None:
        while True:
            with lock:
                if not pending:
                    return
                index, task = pending.pop(0)
            part = parts / f"row-{index}.json"
            part.unlink(missing_ok=True)
            env = {**os.environ, **env_extra}
            proc = subprocess.run([sys.executable, "-m", "passagent.agent.sweep.policy_bench", "--tasks", task, "--json", str(part),
                                   *child_args, *extra], env=env, capture_output=True, text=True)
            try:
                row = json.loads(part.read_text())[0]
            except (OSError, ValueError, IndexError):
                tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-3:]
                row = error_row(task, f"error: exit {proc.returncode}", " | ".join(tail))
            with lock:
                rows[index] = row
                if on_row is not None:
                    on_row(list(rows))
            print(f"[{label}] {task}: policy AS {row['policy_as']:.3f}, {row['evaluations']} evaluations, "
                  f"{row['wall_s']:.0f} s ({row['exit']})", file=sys.stderr, flush=True)

    threads = [threading.Thread(target=serve, args=slot) for slot in slots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [r for r in rows if r is not None]


def resumed_rows(path: Path | None, tasks: list[str]) -> dict[int, dict[str, Any]]:
    """Rows of an earlier run of this list kept by ``--resume``: by task index, those of ``path``
    (a ``--json`` file; missing: none) whose task is in ``tasks`` and that are not error rows.
    Raises ValueError on a file that is not a JSON list of rows."""
    if path is None or not path.exists():
        return {}
    old = json.loads(path.read_text())
    if not isinstance(old, list) or not all(isinstance(r, dict) and "task" in r for r in old):
        raise ValueError(f"{path} is not a JSON list of rows with a 'task' each")
    by_task = {r["task"]: r for r in old if not str(r.get("exit", "")).startswith("error")}
    return {i: by_task[t] for i, t in enumerate(tasks) if t in by_task}


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table and its summary lines."""
    short = {"generated kernel": "kernel", "library form": "library", "simplification": "simpl."}
    fmt = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
    lines = ["| task | Inductor AS | policy AS | ratio | correct@-5 policy / Inductor | ratio, no t=-5 regression | "
             "kept rules by family | evaluations | wall s | exit |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fam = ", ".join(f"{short.get(f, f)}: {len(v)}" for f, v in r["families"].items() if v) or "-"
        name = Path(r["task"]).name
        name = name[:12] if len(name) > 32 else name  # a PassBench task's hash
        corr = (f"{r['correct']}/{r['subgraphs']} / {r['inductor_correct']}/{r['subgraphs']}"
                if r.get("subgraphs") else "-")
        lines.append(f"| {name} | {fmt(r['inductor_as'])} | {fmt(r['policy_as'])} | {fmt(r['ratio'])} | {corr} | "
                     f"{fmt(r.get('ratio_no_regression'))} | {fam} | {r['evaluations']} | {r['wall_s']:.0f} | {r['exit']} |")
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    clean = [r["ratio_no_regression"] for r in rows if r.get("ratio_no_regression")]
    evaluated = sum(1 for r in rows if r["evaluations"] > 0)
    ga, gp, gr = _geomean([r["inductor_as"] for r in rows]), _geomean([r["policy_as"] for r in rows]), _geomean(ratios)
    n = sum(r.get("subgraphs") or 0 for r in rows)
    mine, ind = (sum(r.get(k) or 0 for r in rows) for k in ("correct", "inductor_correct"))
    lines += ["", f"{evaluated}/{len(rows)} tasks with a pass evaluated; geometric means over tasks: Inductor AS "
                  f"{fmt(ga)}, policy AS {fmt(gp)}, ratio {fmt(gr)} (over the {len(ratios)} tasks with an Inductor AS); "
                  f"{sum(r['wall_s'] for r in rows):.0f} s in all.",
              f"correct@-5 over the best versions' subgraphs: policy {mine}/{n}, Inductor {ind}/{n}; "
              f"{sum(1 for r in rows if (r.get('correct') or 0) < (r.get('inductor_correct') or 0))} task(s) whose best "
              f"version is correct on fewer subgraphs than Inductor. Ratio of the best version without a t=-5 "
              f"regression: {fmt(_geomean(clean))} (geometric mean over the {len(clean)} tasks that have one)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="*", default=[], help="task ids or folders, space- or comma-separated")
    parser.add_argument("--tasks-file", type=Path, help="a file with one task id or folder per line")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")
    parser.add_argument("--timing-budget", type=float, default=None, help="seconds of timed calls per subgraph per evaluation")
    parser.add_argument("--integrity-mode", default="permissive", choices=["permissive", "strict"])
    parser.add_argument("--patience", type=int, default=3, help="evaluations without AS improving that end a run")
    parser.add_argument("--max-wall", type=float, default=None, help="seconds of run time per task (the loop's max_wall_s), checked between steps: a step under way finishes first")
    parser.add_argument("--out", type=Path, default=Path("runs/policy_bench"), help="archive root of the runs")
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--retabulate", type=Path, help="re-derive the table of this earlier --json file from the runs "
                                                         "archived under --out, without solving again")
    parser.add_argument("--gpus", default="", help="CUDA device indices (0,1,2,3): one task per GPU at a time, in "
                                                   "parallel; needs --device cuda (not cuda:N: each child sees its GPU as cuda)")
    parser.add_argument("--workers", type=int, default=1, help="tasks at once on each device (each GPU of --gpus, or "
                                                               "--device), sharing its device lease")
    parser.add_argument("--lease-scope", default="device", choices=["device", "evaluation"],
                        help="what an evaluation's device lease covers with --workers: its device steps (the default; on a "
                             "GPU the compiles run before it) or the whole evaluation, every compile under it")
    parser.add_argument("--resume", action="store_true", help="keep the rows already in --json (not error rows) and "
                                                               "solve the other tasks only")
    # A child of --workers: the device whose lease it shares with its siblings, and their lock folder.
    parser.add_argument("--lease-pool", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--lock-dir", type=Path, default=None, help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.retabulate:
        try:
            rows = retabulate(json.loads(opts.retabulate.read_text()), opts.out)
        except (OSError, ValueError) as exc:
            parser.error(str(exc))
        if opts.json:
            opts.json.write_text(json.dumps(rows, indent=1))
        print(table(rows))
        return 0
    tasks = [t for item in opts.tasks for t in item.split(",") if t.strip()]
    if opts.tasks_file:
        # $PASSAGENT_SHARED in a line: the shared data folder, by default ../shared beside the repository.
        os.environ.setdefault("PASSAGENT_SHARED", str(Path(__file__).resolve().parents[3] / "shared"))
        tasks += [os.path.expandvars(line.strip()) for line in opts.tasks_file.read_text().splitlines()
                  if line.strip() and not line.startswith("#")]
    if not tasks:
        parser.error("give --tasks or --tasks-file")
    if not re.fullmatch(r"cpu|cuda(:\d+)?", opts.device):
        parser.error(f"--device must be cpu, cuda or cuda:N, not {opts.device!r}")
    if opts.workers < 1:
        parser.error("--workers must be at least 1")
    if opts.resume and not opts.json:
        parser.error("--resume needs --json (the rows to keep)")
    pool = None
    if opts.lease_pool:
        pool = {"device_pool": [opts.lease_pool], "lock_dir": opts.lock_dir or opts.out / "locks"}
        if opts.lease_scope == "evaluation":
            pool.update(lease_scope="evaluation", compile_before_lease=False)
    elif opts.lease_scope != "device" and opts.workers == 1:
        parser.error("--lease-scope applies to the device lease shared by --workers N (N >= 2)")
    try:
        options = EvalOptions(device=opts.device, timing_budget_s=opts.timing_budget, integrity_mode=opts.integrity_mode,
                              cache_root=opts.cache_dir, **(pool or {}))
    except ValueError as exc:
        parser.error(str(exc).splitlines()[0])
    config = SolveConfig(patience=opts.patience, max_wall_s=opts.max_wall)
    try:
        done = resumed_rows(opts.json, tasks) if opts.resume else {}
    except ValueError as exc:
        parser.error(str(exc))

    def save(rows: list[dict[str, Any] | None]) -> None:
        if opts.json:
            opts.json.write_text(json.dumps([r for r in rows if r is not None], indent=1))

    gpus = [g.strip() for g in opts.gpus.split(",") if g.strip()]
    if gpus and opts.device != "cuda":
        parser.error("--gpus needs --device cuda (each child sees its GPU as cuda)")
    if gpus or opts.workers > 1:
        device = "cuda" if gpus else opts.device
        child = ["--device", device, "--integrity-mode", opts.integrity_mode, "--patience", str(opts.patience),
                 "--out", str(opts.out), "--lease-scope", opts.lease_scope]
        for flag, value in (("--timing-budget", opts.timing_budget), ("--max-wall", opts.max_wall),
                            ("--cache-dir", opts.cache_dir)):
            if value is not None:
                child += [flag, str(value)]
        # Several children of one device share its lease; each GPU of --gpus has its own lock folder
        # (every child sees its GPU as plain cuda, so one folder would serialise different GPUs).
        slots = []
        for gpu in gpus or [None]:
            for w in range(opts.workers):
                env = {"CUDA_VISIBLE_DEVICES": gpu} if gpu is not None else {}
                extra = []
                if opts.workers > 1:
                    locks = opts.out / "locks" / (f"gpu{gpu}" if gpu is not None else device.replace(":", ""))
                    extra = ["--lease-pool", device, "--lock-dir", str(locks)]
                label = f"GPU {gpu}" if gpu is not None else device
                slots.append((label + (f" #{w}" if opts.workers > 1 else ""), env, extra))
        parts = (opts.json.parent if opts.json else opts.out) / "policy_bench_rows"
        started = time.time()
        rows = run_in_children(tasks, slots, child, parts, done=done, on_row=save)
        save(rows)
        print(table(rows))
        leases = lease_summary(opts.out / "locks", since=started)
        if leases is not None:
            print(f"\n{describe_leases(leases)} (lease scope: {opts.lease_scope})")
        return 0
    rows: list[dict[str, Any] | None] = [done.get(i) for i in range(len(tasks))]
    for index, task in enumerate(tasks):
        if rows[index] is not None:
            continue
        try:
            row = bench_task(task, opts.out, options, config)
        except Exception as exc:  # noqa: BLE001 - one broken task must not lose the others' rows
            row = error_row(task, f"error: {type(exc).__name__}", str(exc))
        rows[index] = row
        ind = "n/a" if row["inductor_as"] is None else f"{row['inductor_as']:.3f}"
        print(f"{task}: Inductor AS {ind}, policy AS {row['policy_as']:.3f}, "
              f"{row['evaluations']} evaluations, {row['wall_s']:.0f} s ({row['exit']})", file=sys.stderr, flush=True)
        save(rows)
    final = [r for r in rows if r is not None]
    print(table(final))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
