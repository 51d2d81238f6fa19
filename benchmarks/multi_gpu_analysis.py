"""The analysis and the Markdown report of ``benchmarks/multi_gpu_sweep.py`` (see its docstring):
matching candidates across sweeps, timing agreement, host speed from lease times, the task order
and the list-scheduling model, throughput ratios and the PASS/FAIL checks.

Pure functions of the phases' records (no GPU, no torch, no sweep): the script imports them, and
``multi_gpu_sweep.py --report FILE`` runs them on a saved result. Times are in microseconds
(``*_us``) and seconds (``*_s``); a diff is ``other / base - 1``.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import statistics
import time
from pathlib import Path
from typing import Any

MULTICAST_VARS = ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS")
#: (variant, timing field) pairs compared between sweeps: end-to-end, CUDA-event ("kernel") and
#: CUDA-graph replay ("graph": device time with no host in the loop) medians of the candidate,
#: and eager's as a control (the same eager graph, timed again in every evaluation). The variant
#: ``speedup`` is eager's time over the candidate's in the same evaluation (what the score uses).
COMPARED_LABELS = (("candidate", "graph_median_us", "candidate, CUDA-graph replay"),
                   ("eager", "graph_median_us", "eager (control), CUDA-graph replay"),
                   ("candidate", "median_us", "candidate, end-to-end"),
                   ("eager", "median_us", "eager (control), end-to-end"),
                   ("candidate", "kernel_median_us", "candidate, kernel (CUDA events)"),
                   ("speedup", "median_us", "speedup vs eager (what the score uses)"),
                   # Only in data with the 10th percentile of the end-to-end samples (else no rows).
                   ("candidate", "p10_us", "candidate, end-to-end p10"),
                   ("speedup", "p10_us", "speedup vs eager from p10 (eager p10 / candidate p10)"),
                   # Only in data with the harness's paired_speedup_vs_eager (recorded since 2026-11-30).
                   ("paired", "paired_speedup_vs_eager", "speedup vs eager, median of per-round ratios (the score's since SCORING.md's 2026-12-01 decision)"))
COMPARED = tuple((v, f) for v, f, _t in COMPARED_LABELS)
#: The sweeps, in the order they are reported; ``single-again`` repeats the 1-device sweep as a control.
SWEEPS = ("warmup", "single", "multi", "single-again")


def count_noun(count: int, noun: str) -> str:
    """``1 task``, ``2 tasks``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def lease_time_by_purpose(leases: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Device-lease seconds per purpose (``evaluation``, ``inspect_ir``): count, total, median."""
    by: dict[str, list[float]] = {}
    for r in leases:
        if r.get("start") is not None and r.get("end") is not None:
            by.setdefault(r.get("purpose") or "evaluation", []).append(float(r["end"]) - float(r["start"]))
    return {k: {"leases": len(v), "total_s": sum(v), "median_s": statistics.median(v)} for k, v in sorted(by.items())}


def evaluation_steps(records: list[dict[str, Any]]) -> dict[str, float]:
    """Worker seconds per step (``phase_s``), summed over every subgraph of these evaluations."""
    out: dict[str, float] = {}
    for r in records:
        for s in r.get("subgraphs", []):
            for k, v in (s.get("phase_s") or {}).items():
                out[k] = out.get(k, 0.0) + float(v)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


# --- task order and the schedule model -------------------------------------------------------------------

#: Lease purposes that count towards a task's cost in the warm-up: its evaluations. IR inspections
#: are left out: uncached in a warm-up without ``prewarm``, they are cached for the measured sweeps.
ORDER_PURPOSES = ("evaluation",)


def guard_drops(records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per device: CUDA-graph replays kept and dropped by the graph-replay guard (a replay whose
    host submission outlasted the GPU's spin; ``tools/timing.py``) over every variant and subgraph
    of ``records`` (evaluation records: ``device`` and ``subgraphs[].times``, variant -> timing dict).
    Returns device -> ``kept``, ``dropped`` (replays), ``timings`` (variant timings counted) and
    ``timings_dropping`` (those that dropped any). Only timings that recorded ``graph_dropped``
    count: results from before commit 41ca315 (all three kept ones) give an empty dict."""
    out: dict[str, dict[str, int]] = {}
    for ev in records:
        for s in ev["subgraphs"]:
            for t in s["times"].values():
                if t.get("graph_dropped") is None:
                    continue
                d = out.setdefault(ev["device"], {"kept": 0, "dropped": 0, "timings": 0, "timings_dropping": 0})
                d["kept"] += t.get("graph_replays") or 0
                d["dropped"] += t["graph_dropped"]
                d["timings"] += 1
                d["timings_dropping"] += t["graph_dropped"] > 0
    return out


def lease_seconds_by_task(leases: list[dict[str, Any]], purposes: tuple[str, ...] | None = None) -> dict[Any, float]:
    """Device-lease seconds (end - start) summed per task, tasks in the order of their first lease.

    ``purposes``: count only leases with one of these purposes (a lease without one is an
    ``evaluation``); None counts every lease. A lease without a task counts under None."""
    out: dict[Any, float] = {}
    for r in sorted(leases, key=lambda r: float(r["start"])):
        if r.get("start") is None or r.get("end") is None:
            continue
        if purposes is not None and (r.get("purpose") or "evaluation") not in purposes:
            continue
        out[r.get("task")] = out.get(r.get("task"), 0.0) + float(r["end"]) - float(r["start"])
    return out


def longest_first(tasks: list[str], cost: dict[Any, float]) -> list[str]:
    """``tasks`` by ``cost`` descending (ties keep their order in ``tasks``); tasks without a cost
    follow, in their order in ``tasks``. Costs of tasks not in ``tasks`` are ignored."""
    known = [t for t in tasks if t in cost]
    return sorted(known, key=lambda t: -cost[t]) + [t for t in tasks if t not in cost]


def choose_task_order(tasks: list[str], mode: str, warmup: dict[str, Any] | None) -> dict[str, Any]:
    """The order the measured sweeps pass ``tasks`` to ``passagent sweep --tasks``.

    ``mode`` ``warmup-cost``: longest first by the warm-up's evaluation-lease seconds per task
    (:func:`longest_first`); without a warm-up's leases, or with ``given``, ``tasks`` as they are.
    Returns ``mode`` (what was done), ``tasks``, ``warmup_lease_s`` (the costs used, per task, or
    None), ``not_in_warmup`` (tasks the warm-up did not lease, kept at the end) and ``note``."""
    if mode == "given":
        return {"mode": "given", "tasks": list(tasks), "warmup_lease_s": None, "not_in_warmup": [], "note": "as given"}
    if mode != "warmup-cost":
        raise ValueError(f"unknown task order {mode!r}")
    leases = (warmup or {}).get("leases") or []
    cost = {t: c for t, c in lease_seconds_by_task(leases, ORDER_PURPOSES).items() if t in tasks}
    if not cost:
        why = "no warm-up" if not warmup else "the warm-up leased no device for these tasks"
        return {"mode": "given", "tasks": list(tasks), "warmup_lease_s": None, "not_in_warmup": list(tasks),
                "note": f"as given ({why}, so no warm-up cost)"}
    return {"mode": "warmup-cost", "tasks": longest_first(tasks, cost), "warmup_lease_s": cost,
            "not_in_warmup": [t for t in tasks if t not in cost],
            "note": "longest first by the warm-up's evaluation-lease seconds per task"}


def recorded_task_order(phase: dict[str, Any]) -> dict[str, Any]:
    """The task order a measured phase ran with (a phase recorded before orders were: as given)."""
    return phase.get("task_order") or {"mode": "given", "tasks": list(phase.get("tasks") or []), "warmup_lease_s": None,
                                       "not_in_warmup": [], "note": "as given (recorded before task orders were)"}


def list_schedule_makespan(durations: list[float], n_devices: int) -> float:
    """When the last job ends if ``durations`` are started in this order, each on the device that
    is free first (ties: the lowest-numbered), with ``n_devices`` devices free at 0: greedy list
    scheduling (longest first, this is the LPT heuristic)."""
    free = [0.0] * max(n_devices, 1)
    for d in durations:
        i = min(range(len(free)), key=lambda k: free[k])
        free[i] += float(d)
    return max(free)


def predict_makespan(single: dict[str, Any], order: list[str], n_devices: int,
                     given: list[str] | None = None) -> dict[str, Any] | None:
    """A model of the N-device sweep (not a measurement): the 1-device sweep's lease seconds per
    task (every lease: in the N-device sweep they hold a device too), one job per task and seed
    (seed-major, then task in ``order``, as ``passagent sweep`` plans runs; a task's seconds are
    split evenly over its seeds), list-scheduled on ``n_devices`` (:func:`list_schedule_makespan`),
    plus the 1-device sweep's start-up offset (its first lease's start minus the sweep's start;
    0 where the start was not recorded). ``ratio``: the 1-device sweep's measured wall over the
    predicted wall (the throughput ratio if both finish the same runs). ``given_makespan_s``: the
    same schedule in the ``given`` order, where that differs from ``order``. None without leases."""
    leases = [r for r in single.get("leases") or [] if r.get("start") is not None and r.get("end") is not None]
    if not leases:
        return None
    per_task = lease_seconds_by_task(leases)
    seeds = max(int(single.get("seeds") or 1), 1)

    def jobs(tasks: list[str]) -> list[float]:
        ordered = [t for t in tasks if t in per_task] + [t for t in per_task if t not in tasks]
        return [per_task[t] / seeds for _seed in range(seeds) for t in ordered]

    makespan = list_schedule_makespan(jobs(order), n_devices)
    started = single.get("started_at")
    offset = min(float(r["start"]) for r in leases) - float(started) if started is not None else 0.0
    wall = offset + makespan
    out = {"n_devices": n_devices, "order": list(order), "lease_s_by_task": per_task, "total_lease_s": sum(per_task.values()),
           "makespan_s": makespan, "startup_offset_s": offset, "offset_measured": started is not None,
           "predicted_wall_s": wall,
           "ratio": float(single["wall_s"]) / wall if wall > 0 and single.get("wall_s") else None}
    if given is not None and list(given) != list(order):
        out["given_makespan_s"] = list_schedule_makespan(jobs(list(given)), n_devices)
    return out


# --- analysis -------------------------------------------------------------------------------------------


def _value(sub: dict[str, Any], variant: str, field: str) -> float | None:
    """``field`` of ``variant`` in one subgraph record's ``times``; variant ``speedup``: eager's over
    the candidate's (both from this evaluation); variant ``paired``: the record's ``field`` itself
    (``paired_speedup_vs_eager``, the median of per-round ratios the harness records). None where
    missing or zero."""
    if variant == "paired":
        v = sub.get(field)
        return float(v) if v else None
    times = sub["times"]
    if variant == "speedup":
        e, c = (times.get("eager") or {}).get(field), (times.get("candidate") or {}).get(field)
        return float(e) / float(c) if e and c else None
    t = (times.get(variant) or {}).get(field)
    return float(t) if t else None


def compare(base: list[dict[str, Any]], other: list[dict[str, Any]], variant: str = "candidate",
            field: str = "median_us") -> list[dict[str, Any]]:
    """Pairs of the same candidate's timing in two sweeps: one row per subgraph of each
    evaluation of ``other`` whose (task, seed, pass digest, subgraph) was also timed in ``base``.

    ``diff`` is ``other / base - 1`` with each side the median time (``field``) of ``variant``;
    a candidate evaluated more than once in ``base`` is compared with the median of its medians.
    Variant ``speedup``: each side is eager's ``field`` over the candidate's in one evaluation
    (a ratio, though the row's keys still say ``_us``). Subgraphs without the field give no row.
    """
    ref: dict[tuple[Any, ...], list[float]] = {}
    for ev in base:
        for s in ev["subgraphs"]:
            t = _value(s, variant, field)
            if t:
                ref.setdefault((ev["task"], ev["seed"], ev["pass_sha256"], s["index"]), []).append(t)
    rows = []
    for ev in other:
        for s in ev["subgraphs"]:
            t = _value(s, variant, field)
            key = (ev["task"], ev["seed"], ev["pass_sha256"], s["index"])
            if not t or key not in ref:
                continue
            b = statistics.median(ref[key])
            rows.append({"task": ev["task"], "seed": ev["seed"], "version": ev["version"], "pass": (ev["pass_sha256"] or "")[:10],
                         "subgraph": s["index"], "dtypes": ",".join(s.get("dtypes") or []), "device": ev["device"],
                         "base_us": b, "other_us": float(t), "diff": float(t) / b - 1.0})
    return rows


def agreement(rows: list[dict[str, Any]], tolerance: float) -> dict[str, dict[str, Any]]:
    """Per device: pairs, median and worst |diff|, mean diff (bias), and how many are within ``tolerance``."""
    out = {}
    for dev in sorted({r["device"] for r in rows}):
        d = [r["diff"] for r in rows if r["device"] == dev]
        out[dev] = {"pairs": len(d), "median_abs": statistics.median(abs(x) for x in d), "mean": statistics.fmean(d),
                    "worst_abs": max(abs(x) for x in d), "within": sum(abs(x) <= tolerance for x in d)}
    return out


def _add_comparisons(a: dict[str, Any], name: str, single: dict[str, Any], other: dict[str, Any], tolerance: float) -> None:
    """``a["comparisons"]["{name}:{variant}:{field}"]``: every :data:`COMPARED` timing of the sweep
    ``other`` against the 1-device sweep ``single`` (rows and per-device agreement), where any pair."""
    for variant, field in COMPARED:
        rows = compare(single["evaluation_records"], other["evaluation_records"], variant, field)
        if rows:
            a["comparisons"][f"{name}:{variant}:{field}"] = {"rows": rows, "by_device": agreement(rows, tolerance)}


def matched_lease_time(base: list[dict[str, Any]], other: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Lease seconds of the evaluations both sweeps made (same task, seed and pass digest; repeats
    paired in the order they ran): ``{"evaluations", "base_s", "other_s", "ratio"}`` (other / base),
    or None with none in common. The same work on the same kind of GPU, so the ratio is how much
    faster (< 1) or slower the host ran it in ``other``: drift between sweeps, plus, in a
    multi-device sweep, whatever sharing the host with the other devices' evaluations costs."""
    def by_key(records: list[dict[str, Any]]) -> dict[tuple, list[float]]:
        out: dict[tuple, list[tuple[float, float]]] = {}
        for r in records:
            lease = r.get("lease") or {}
            if lease.get("start") is not None and lease.get("end") is not None:
                out.setdefault((r["task"], r["seed"], r["pass_sha256"]), []).append(
                    (float(lease["start"]), float(lease["end"]) - float(lease["start"])))
        return {k: [d for _, d in sorted(v)] for k, v in out.items()}

    b, o = by_key(base), by_key(other)
    pairs = [(x, y) for k in b.keys() & o.keys() for x, y in zip(b[k], o[k])]
    if not pairs:
        return None
    base_s, other_s = sum(x for x, _ in pairs), sum(y for _, y in pairs)
    return {"evaluations": len(pairs), "base_s": base_s, "other_s": other_s, "ratio": other_s / base_s if base_s else None}


def nearest_reference_checks(a: dict[str, Any], single: dict[str, Any], multi: dict[str, Any], again: dict[str, Any],
                             tolerance: float, min_ratio: float) -> list[tuple[str, bool, str]]:
    """With a control sweep: the checks read against the 1-device sweep whose evaluations took
    most nearly as long as the multi-device sweep's (smallest |log| of the matched lease ratio,
    :func:`matched_lease_time`), and as medians over candidates: per device, the median |diff| of
    the score's speedup vs eager and of the CUDA-graph device time within ``tolerance`` (a
    fraction), and throughput at least ``min_ratio`` (between whole sweeps only). Sets
    ``a["reference"]``; none without matched leases in both 1-device sweeps.

    Why: on 2026-11-30 the host's speed moved ~12% between sweeps minutes apart, as much as the
    3% being tested, and the same GPU against itself put only about half its candidates within
    3%. The rule was fixed after that measurement and before any other, so results measured
    since are read by it without choosing a reference after seeing them (README, "Two GPUs")."""
    first, control = (a.get("lease_ratio") or {}).get("multi"), (a.get("lease_ratio") or {}).get("multi-vs-control")
    if not (first and control and first["ratio"] and control["ratio"]):
        return []
    use_control = abs(math.log(control["ratio"])) < abs(math.log(first["ratio"]))
    ref, prefix, name = ((again, "multi-vs-control", "the control") if use_control else (single, "multi", "the first 1-device sweep"))
    a["reference"] = {"sweep": "single-again" if use_control else "single",
                      "lease_ratio_vs_first": first["ratio"], "lease_ratio_vs_control": control["ratio"]}
    why = f"lease ratios {first['ratio']:.3f} vs the first, {control['ratio']:.3f} vs the control"
    out = []
    for key, what in (("speedup:median_us", "speedup vs eager"), ("candidate:graph_median_us", "device time (CUDA-graph replay)")):
        comp = a["comparisons"].get(f"{prefix}:{key}")
        if not comp:
            continue
        by = comp["by_device"]
        out.append((f"median over candidates of the {what} difference within {tolerance:.0%} on every device, "
                    f"against the 1-device sweep nearest in lease time", all(v["median_abs"] <= tolerance for v in by.values())
                    and len(by) == len(multi["devices"]),
                    f"against {name} ({why}): " + "; ".join(f"{d}: {v['median_abs']:.2%}" for d, v in by.items())))
    if ref["solves_per_hour"]:
        ratio = multi["solves_per_hour"] / ref["solves_per_hour"]
        comparable = ref["complete"] and multi["complete"]
        out.append((f"throughput at least {min_ratio}x the 1-device sweep nearest in lease time",
                    ratio >= min_ratio and comparable,
                    f"{ratio:.2f}x against {name}" + ("" if comparable else " (a sweep did not finish: not comparable)")))
    return out


def analyse(result: dict[str, Any], tolerance: float, min_ratio: float) -> dict[str, Any]:
    phases = result["phases"]
    single, multi, warm = phases.get("single"), phases.get("multi"), phases.get("warmup")
    again = phases.get("single-again")
    a: dict[str, Any] = {"comparisons": {}, "checks": []}
    if single and multi:
        for name, other in (("multi", multi), ("warmup", warm)):
            if other:
                _add_comparisons(a, name, single, other, tolerance)
        s_rate, m_rate = single["solves_per_hour"], multi["solves_per_hour"]
        a["throughput_ratio"] = m_rate / s_rate if s_rate else None
        order = recorded_task_order(multi)["tasks"] or recorded_task_order(single)["tasks"]
        a["prediction"] = predict_makespan(single, order, len(multi["devices"]), given=result.get("tasks"))
    if single and again:
        # The control: the same 1-device sweep twice. Its disagreement is how far two sweeps differ
        # with no second GPU involved (the host's drift between them), the noise under the
        # multi-device comparison above; its throughput ratio is 1 with no drift.
        _add_comparisons(a, "single-again", single, again, tolerance)
        # A throughput ratio only between whole sweeps: a sweep stopped early ran its longest
        # tasks (they start first) and not its short tail.
        if single["complete"] and again["complete"]:
            s_rate, r_rate = single["solves_per_hour"], again["solves_per_hour"]
            a["control_throughput_ratio"] = r_rate / s_rate if s_rate else None
            if multi and multi["complete"] and again["solves_per_hour"]:
                a["throughput_ratio_vs_control"] = multi["solves_per_hour"] / again["solves_per_hour"]
            if multi and multi["complete"] and single["finished_runs"] == again["finished_runs"]:
                # 1-device, multi-device, 1-device again: the two 1-device sweeps bracket the other,
                # so a drift that is steady over the three cancels in their pooled throughput.
                pooled = (single["finished_runs"] + again["finished_runs"]) / (single["wall_s"] + again["wall_s"]) * 3600
                a["throughput_ratio_vs_both_single"] = multi["solves_per_hour"] / pooled
    if again and multi:
        # The multi-device sweep against the control as well: where the host ran the control at the
        # multi-device sweep's speed and the first 1-device sweep at another (see "lease_ratio"),
        # this is the comparison the drift does not enter.
        _add_comparisons(a, "multi-vs-control", again, multi, tolerance)
    # Host speed: the same evaluations' lease time in each later sweep against the 1-device sweep.
    if single:
        a["lease_ratio"] = {name: m for name, base, p in (("multi", single, multi), ("single-again", single, again),
                                                          ("multi-vs-control", again, multi))
                            if base and p and (m := matched_lease_time(base["evaluation_records"], p["evaluation_records"]))}
    checks = a["checks"]
    measured = [p for p in (warm, single, multi, again) if p]
    worst = max((max(p["busy"]["max_per_device"].values(), default=0) for p in measured), default=0)
    n_leases = sum(len(p["leases"]) for p in measured)
    checks.append(("at most one evaluation per device at a time (every sweep)", n_leases > 0 and worst <= 1,
                   f"most at once on one device: {worst} ({n_leases} leases)"))
    if multi:
        b = multi["busy"]
        n_dev = len(multi["devices"])
        all_busy = b["fraction_with_devices_busy"].get(n_dev, 0.0)
        checks.append((f"{n_dev} evaluations at once, one per device, in the {n_dev}-device sweep",
                       b["seconds_with_devices_busy"].get(n_dev, 0.0) > 0,
                       f"most leases at once: {b['max_overall']}; all {n_dev} devices busy {all_busy:.0%} of its wall time"))
    for field, what in (("graph_median_us", "device time (CUDA-graph replay)"), ("median_us", "end-to-end time")):
        main = a["comparisons"].get(f"multi:candidate:{field}")
        if not main:
            continue
        ok = all(v["within"] == v["pairs"] for v in main["by_device"].values())
        detail = "; ".join(f"{d}: {v['within']}/{v['pairs']} within, worst {v['worst_abs']:.1%}, median {v['median_abs']:.1%}"
                           for d, v in main["by_device"].items())
        checks.append((f"each candidate's median {what} within {tolerance:.0%} of its single-device median, on every device",
                       ok, detail))
        if len(main["by_device"]) < len(multi["devices"]):
            checks.append((f"candidates compared on every device ({what})", False,
                           f"compared on {', '.join(main['by_device'])} only"))
    if speedup := a["comparisons"].get("multi:speedup:median_us"):  # what the score uses
        checks.append((f"each candidate's speedup vs eager within {tolerance:.0%} of its single-device value",
                       all(v["within"] == v["pairs"] for v in speedup["by_device"].values()),
                       "; ".join(f"{d}: {v['within']}/{v['pairs']} within, worst {v['worst_abs']:.1%}, median {v['median_abs']:.1%}"
                                 for d, v in speedup["by_device"].items())))
    if single and multi and not a["comparisons"].get("multi:candidate:median_us"):
        checks.append(("candidates timed in both sweeps", False, "no candidate was timed in both sweeps"))
    if a.get("throughput_ratio") is not None:
        comparable = single["complete"] and multi["complete"]
        checks.append((f"throughput at least {min_ratio}x the single-device sweep's", a["throughput_ratio"] >= min_ratio and comparable,
                       f"{a['throughput_ratio']:.2f}x" + ("" if comparable else " (a sweep did not finish: not comparable)")))
    if single and multi and again:
        checks.extend(nearest_reference_checks(a, single, multi, again, tolerance, min_ratio))
    # The switches as the measuring process had them (recorded at its start); this process's own
    # only where the result predates that record.
    expected = result.get("multicast_env") or {k: os.environ.get(k) for k in MULTICAST_VARS}
    procs = [r for p in measured for r in p["processes"].values()]
    seen = sum(r["processes"] for r in procs)
    same = sum(r["multicast_as_parent"] for r in procs)
    checks.append(("multicast switches reach every child process unchanged", seen > 0 and same == seen,
                   f"{same}/{seen} sampled processes; in the measuring process: " + ", ".join(f"{k}={v}" for k, v in expected.items())))
    a["checks"] = [{"check": c, "ok": bool(ok), "value": v} for c, ok, v in checks]
    return a


# --- output -------------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x:+.1%}"


def code_text(result: dict[str, Any]) -> str | None:
    """One line naming the code the phases ran, from each phase's ``sources`` (the code identity,
    ``tools/provenance.source_identity``, at the start and end of each invocation that ran it), or
    None when no phase recorded any (results from before commit c6ce0ab). Different code between or
    within phases, or a phase without a record next to ones with, is said first, in bold.
    ``result``: a multi_gpu_sweep result (``phases``: name -> phase dict); raises KeyError without
    ``phases``."""
    def name(ids: list[dict[str, Any]]) -> str:
        commits = sorted({i["git_commit"][:12] for i in ids if i.get("git_commit")})
        where = ("git commit " + ", ".join(commits) + (", with uncommitted changes" if any(i.get("dirty") for i in ids) else "")
                 if commits else "no git commit readable where it ran")
        return f"sources sha256 {ids[0]['source_sha256'][:12]} ({where})"
    phases = {k: result["phases"][k] for k in SWEEPS if result["phases"].get(k) is not None}
    sources = {k: ph.get("sources") or [] for k, ph in phases.items()}
    if not any(sources.values()):
        return None
    digests = {i["source_sha256"] for ids in sources.values() for i in ids}
    if len(digests) == 1 and all(sources.values()):
        return f"Code: passagent {name([i for ids in sources.values() for i in ids])}, every phase from start to end."
    parts = []
    for k, ids in sources.items():
        if not ids:
            parts.append(f"{k}: no record")
            continue
        seen = list(dict.fromkeys(i["source_sha256"] for i in ids))
        parts.append(f"{k}: " + " then ".join(name([i for i in ids if i["source_sha256"] == d]) for d in seen))
    return "**The phases did not all run the same recorded code** (their comparisons may mix code versions): " + "; ".join(parts) + "."


def task_order_text(result: dict[str, Any]) -> str | None:
    """The report header's sentence on the order the measured sweeps got their tasks in."""
    phases = result.get("phases", {})
    recorded = {k: recorded_task_order(phases[k]) for k in ("single", "multi", "single-again") if phases.get(k)}
    if len({tuple(o["tasks"]) for o in recorded.values()}) > 1:
        return ("Task order differs between the measured sweeps (their throughputs are not comparable): "
                + "; ".join(f"{k}: {', '.join(o['tasks'])} ({o['note']})" for k, o in recorded.items()) + ".")
    o = next(iter(recorded.values()), None) or result.get("task_order")
    if not o:
        return None
    if o["mode"] == "warmup-cost":
        cost = o.get("warmup_lease_s") or {}
        text = (f"Task order of the measured sweeps (`--order warmup-cost`): {o['note']}: "
                + ", ".join(f"{t} ({cost[t]:.0f} s)" if t in cost else t for t in o["tasks"] if t in cost))
        if o.get("not_in_warmup"):
            text += f"; then, not leased in the warm-up, as given: {', '.join(o['not_in_warmup'])}"
        return text + "."
    return f"Task order of the measured sweeps: {o['note']}: {', '.join(o['tasks'])}."


def prediction_text(pred: dict[str, Any], n_devices: int) -> str:
    """One sentence on :func:`predict_makespan`'s model, labelled as one."""
    given = f" (in the given order: {pred['given_makespan_s']:.0f} s)" if pred.get("given_makespan_s") is not None else ""
    offset = (f"the 1-device sweep's measured start-up offset of {pred['startup_offset_s']:.0f} s (its first lease after its start)"
              if pred["offset_measured"] else "no start-up offset (the sweep's start was not recorded)")
    ratio = (f" and a throughput ratio of {pred['ratio']:.2f}x (the 1-device sweep's measured wall / the predicted wall)"
             if pred.get("ratio") is not None else "")
    return (f"Model, not a measurement: greedy list scheduling of the 1-device sweep's device-lease seconds per task "
            f"({pred['total_lease_s']:.0f} s over {count_noun(len(pred['lease_s_by_task']), 'task')}) on {n_devices} devices in the "
            f"order used ends after {pred['makespan_s']:.0f} s{given}; with {offset}, that predicts a "
            f"{pred['predicted_wall_s']:.0f} s {n_devices}-device sweep{ratio}.")


def markdown(result: dict[str, Any], tolerance: float, detail_rows: int) -> str:
    phases, a = result["phases"], result.get("analysis", {})
    lines = [f"# multi_gpu_sweep {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(result['started_at']))} "
             f"on {result['machine']}" + (f", torch {result['torch']}" if result.get("torch") else ""), ""]
    if missing := [name for key, name in (("single", "the 1-device sweep"), ("multi", "the multi-device sweep"))
                   if key not in phases]:
        lines += [f"Not in this result yet: {' and '.join(missing)} (no agreement or throughput without both).", ""]
    lines.append(f"Built-in policy over {count_noun(len(result['tasks']), 'task')} ({', '.join(result['tasks'])}; "
                 f"{len(result['long_tail_tasks'])} of them built-in long-tail), "
                 f"{result['seeds']} seed(s) each; "
                 + (f"{result['workers']} workers in both sweeps (the 1-device sweep gets as many runs at once as the other; "
                    "its evaluations queue on its one lease); " if result["workers"] == result["single_workers"] else
                    f"{result['workers']} workers in the multi-device sweep, {result['single_workers']} in the 1-device one; ")
                 + f"cache: {result['cache_mode']}; timing budget {result['timing_budget'] or 'default'}; "
                 f"per-run limits: max steps {result['max_steps']}, patience {result['patience']}, "
                 f"max wall {result['run_max_wall'] or 'none'}.")
    if order_line := task_order_text(result):
        lines.append(order_line)
    if code_line := code_text(result):
        lines.append(code_line)
    if result.get("prewarm_ir"):
        p = result["prewarm_ir"]
        lines.append(f"IR inspections computed first: {p['subgraphs']} subgraphs, {p['parallel']} at a time, {p['wall_s']:.0f} s"
                     + (f", {len(p['errors'])} failed" if p["errors"] else "") + (f", {p['not_started']} not started" if p["not_started"] else "") + ".")
    lines.append("")
    # Per-candidate detail (largest disagreements first), before the summaries.
    comps = a.get("comparisons", {})
    main = comps.get("multi:candidate:median_us")
    if main:
        key = ("task", "seed", "version", "pass", "subgraph", "device")
        graph = {tuple(r[k] for k in key): r for r in (comps.get("multi:candidate:graph_median_us") or {}).get("rows", [])}
        rows = sorted(main["rows"], key=lambda r: -abs(graph.get(tuple(r[k] for k in key), r)["diff"]))
        lines += [f"Per candidate and subgraph, median times (us) in the 1-device and the multi-device sweep, "
                  f"largest disagreements first (of CUDA-graph replay times where measured, else end-to-end; "
                  f"v: the pass version in its run) ({min(len(rows), detail_rows)} of {len(rows)}):", "",
                  "| task | seed | v | pass | subgraph | dtype | device (multi) | end-to-end 1-dev | end-to-end multi | diff "
                  "| graph replay 1-dev | graph replay multi | diff |",
                  "|---|---:|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in rows[:detail_rows]:
            g = graph.get(tuple(r[k] for k in key))
            gcols = f"{g['base_us']:.1f} | {g['other_us']:.1f} | {_pct(g['diff'])}" if g else "- | - | -"
            lines.append(f"| {r['task']} | {r['seed']} | {r['version']} | {r['pass']} | {r['subgraph']} | {r['dtypes']} | "
                         f"{r['device']} | {r['base_us']:.1f} | {r['other_us']:.1f} | {_pct(r['diff'])} | {gcols} |")
        lines.append("")
    lines += ["| sweep | devices | workers | runs finished | evaluations | wall (s) | solves per hour | "
              "device busy (s) | most leases on one device | most leases at once | all devices busy |",
              "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    names = {"warmup": "warm-up (not timed for throughput)", "single": "1 device", "multi": f"{len(result['multi_pool'])} devices",
             "single-again": "1 device, again (control)",
             "multi-vs-control": f"{len(result['multi_pool'])} devices, against the control instead"}
    for key in SWEEPS:
        p = phases.get(key)
        if not p:
            continue
        b = p["busy"]
        busy = ", ".join(f"{d} {s:.0f}" for d, s in b["busy_s"].items()) or "-"
        lines.append(f"| {names[key]} | {','.join(p['devices'])} | {p['workers']} | {p['finished_runs']}/{p['planned_runs']}"
                     f"{'' if p['complete'] else ' (incomplete)'} | {p['evaluations']} | {p['wall_s']:.0f} | "
                     f"{p['solves_per_hour']:.0f} | {busy} | {max(b['max_per_device'].values(), default=0)} | "
                     f"{b['max_overall']} | {b['fraction_with_devices_busy'].get(len(p['devices']), 0.0):.0%} |")
    lease_rows = [(names[k], purpose, v) for k in SWEEPS if phases.get(k)
                  for purpose, v in (phases[k].get("lease_time") or {}).items()]
    if lease_rows:
        lines += ["", "Where the device leases went (an IR inspection that is not cached holds a lease too):", "",
                  "| sweep | purpose | leases | total (s) | median (s) | evaluation worker time by step (s) |",
                  "|---|---|---:|---:|---:|---|"]
        for name, purpose, v in lease_rows:
            key = next(k for k in names if names[k] == name)
            steps = evaluation_steps(phases[key]["evaluation_records"]) if purpose == "evaluation" else {}
            top = ", ".join(f"{k} {sec:.0f}" for k, sec in list(steps.items())[:5]) or "-"
            lines.append(f"| {name} | {purpose} | {v['leases']} | {v['total_s']:.0f} | {v['median_s']:.1f} | {top} |")
    guard = [(names[k], dev, v) for k in SWEEPS if phases.get(k)
             for dev, v in guard_drops(phases[k]["evaluation_records"]).items()]
    if guard:
        lines += ["", "CUDA-graph replay guard (replays dropped because the host's submission outlasted the GPU's spin):", "",
                  "| sweep | device | variant timings | with drops | replays kept | replays dropped |",
                  "|---|---|---:|---:|---:|---:|"]
        lines += [f"| {name} | {dev} | {v['timings']} | {v['timings_dropping']} | {v['kept']} | {v['dropped']} "
                  f"({v['dropped'] / max(1, v['kept'] + v['dropped']):.2%}) |" for name, dev, v in guard]
    if a.get("throughput_ratio") is not None:
        lines.append("")
        lines.append(f"Throughput ratio (solves per hour, {len(result['multi_pool'])} devices / 1 device): "
                     f"**{a['throughput_ratio']:.2f}x**")
        if a.get("prediction"):
            lines += ["", prediction_text(a["prediction"], len(result["multi_pool"]))]
    if again := phases.get("single-again"):
        ratio, single = a.get("control_throughput_ratio"), phases.get("single")
        if ratio is not None:
            what = f"throughput ratio {ratio:.2f}x the first 1-device sweep's (1.00 with no drift between sweeps)"
        elif not single:
            what = "nothing to compare it with (no first 1-device sweep in this result)"
        else:
            what = (f"no throughput ratio (a 1-device sweep did not finish: the first "
                    f"{single['finished_runs']}/{single['planned_runs']} runs, the control "
                    f"{again['finished_runs']}/{again['planned_runs']})")
        lines += ["", "Control (the 1-device sweep run again, `--phases single-again`): " + what
                  + ("; its rows in the agreement table below show how far two sweeps differ with no second GPU "
                     "involved, which the other sweeps' disagreement is read against." if single else ".")]
        if a.get("throughput_ratio_vs_control") is not None:
            lines += ["", f"Throughput ratio against the control instead ({len(result['multi_pool'])} devices / "
                      f"1 device, again): **{a['throughput_ratio_vs_control']:.2f}x**"]
        if a.get("throughput_ratio_vs_both_single") is not None:
            lines += ["", f"Throughput ratio against both 1-device sweeps pooled (they ran before and after the "
                      f"multi-device one, so a steady drift cancels): **{a['throughput_ratio_vs_both_single']:.2f}x**"]
    if a.get("lease_ratio"):
        lines += ["", "Host speed: lease seconds of the evaluations both sweeps made, other sweep / 1-device sweep "
                  "(below 1: the host ran the same work faster; drift between sweeps, plus in a multi-device sweep "
                  "the cost of sharing the host):", "",
                  "| sweep | evaluations | 1-device (s) | other (s) | ratio |", "|---|---:|---:|---:|---:|"]
        for key, m in a["lease_ratio"].items():
            ratio = f"{m['ratio']:.3f}" if m["ratio"] is not None else "-"
            lines.append(f"| {names[key]} | {m['evaluations']} | {m['base_s']:.0f} | {m['other_s']:.0f} | {ratio} |")
    if comps:
        lines += ["", "Timing agreement with the 1-device sweep, per device of the other sweep (diff = other / 1-device - 1; "
                  "pairs: same task, seed, pass digest and subgraph):", "",
                  f"| sweep | timing | device | pairs | median abs diff | mean diff | worst abs diff | within {tolerance:.0%} |",
                  "|---|---|---|---:|---:|---:|---:|---:|"]
        label = {f"{v}:{f}": t for v, f, t in COMPARED_LABELS}
        for key, c in comps.items():
            sweep, rest = key.split(":", 1)
            for dev, v in c["by_device"].items():
                lines.append(f"| {names[sweep]} | {label[rest]} | {dev} | {v['pairs']} | {v['median_abs']:.2%} | "
                             f"{_pct(v['mean'])} | {v['worst_abs']:.2%} | {v['within']}/{v['pairs']} |")
    procs: dict[str, dict[str, Any]] = {}
    for key in SWEEPS:
        for role, r in (phases.get(key) or {}).get("processes", {}).items():
            q = procs.setdefault(role, {"processes": 0, "multicast_as_parent": 0, "cuda": set()})
            q["processes"] += r["processes"]
            q["multicast_as_parent"] += r["multicast_as_parent"]
            q["cuda"].update(r["cuda_visible_devices"])
    if procs:
        lines += ["", "Processes the sweeps started (sampled from /proc):", "",
                  "| role | processes | multicast switches as here | CUDA_VISIBLE_DEVICES seen |", "|---|---:|---:|---|"]
        for role, q in sorted(procs.items()):
            lines.append(f"| {role} | {q['processes']} | {q['multicast_as_parent']} | {', '.join(sorted(q['cuda']))} |")
    if a.get("checks"):
        lines += ["", "| check | result | value |", "|---|---|---|"]
        if result["multi_pool"][0].startswith("cpu"):
            lines[-2:-2] = ["", "CPU dry run: the stand-in slots share the CPU's cores, so timing agreement and throughput "
                            "are not meaningful here, and with fewer evaluations than slots two cannot run at once; "
                            "these checks are for GPUs."]
        for c in a["checks"]:
            lines.append(f"| {c['check']} | {'PASS' if c['ok'] else 'FAIL'} | {c['value']} |")
    return "\n".join(lines)


def load_state(path: Path) -> dict[str, Any]:
    """An earlier invocation's ``state.json``, with the busy profiles' integer keys (numbers of
    devices busy at once) restored: JSON turns them into strings. A ``.gz`` path is read through gzip
    (the measurements kept under ``benchmarks/results/``).

    Raises FileNotFoundError, ValueError (not JSON, or not shaped like a result: an object whose
    ``phases`` maps phase names to objects), OSError or EOFError (a broken gzip file)."""
    state = json.loads(gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_text())
    phases = state.get("phases") if isinstance(state, dict) else None
    if not isinstance(phases, dict) or not all(isinstance(v, dict) for v in phases.values()):
        raise ValueError("no 'phases' object of phase records")
    for phase in phases.values():
        busy = phase.get("busy") or {}
        for key in ("fraction_with_devices_busy", "seconds_with_devices_busy"):
            if isinstance(busy.get(key), dict):
                busy[key] = {int(k): v for k, v in busy[key].items()}
    return state
