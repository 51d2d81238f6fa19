"""The figures of ``benchmarks/multi_gpu_sweep.py``: throughput of the one-device and the
multi-device sweep, per-candidate timing agreement between them, the checks, and the Markdown report.

Pure functions of the recorded phases (no GPU, no torch, no sweep): the script imports them, and
``multi_gpu_sweep.py --report FILE`` runs them on a saved result. A phase is one ``passagent
sweep``: ``warmup`` (fills the caches), ``single`` (one device), ``multi`` (every device) and
``single-again`` (the control: the one-device sweep run after the multi-device one, to measure how
far two sweeps differ with no second device involved). Times are microseconds (``*_us``) or
seconds (``*_s``); a diff is ``other / base - 1``.
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

#: NVLink multicast off in every process the sweeps start (NCCL, PyTorch symmetric memory and
#: NVSHMEM each have their own switch); the device machines' notes ask for it on multi-GPU hosts.
MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
SWEEPS = ("warmup", "single", "multi", "single-again")
SWEEP_NAMES = {"warmup": "warm-up (fills the caches)", "single": "1 device", "multi": "all devices",
               "single-again": "1 device, again (control)"}
#: Agreement metrics: the score's speedup vs eager (SCORING.md: the median over timed rounds of
#: eager time / candidate time, ``speedup_vs_eager``; results recorded before that field was the
#: score carry it as ``paired_speedup_vs_eager``) and the candidate's CUDA-graph replay median
#: (device time with no host in the loop).
METRICS = {"speedup": "speedup vs eager (the score's)", "graph": "candidate device time (CUDA-graph replay)"}
#: (other sweep, 1-device sweep it is compared with), in report order.
PAIRS = (("multi", "single"), ("multi", "single-again"), ("single-again", "single"))


def count_noun(count: int, noun: str) -> str:
    """``1 task``, ``2 tasks``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def metric_value(sub: dict[str, Any], metric: str) -> float | None:
    """``metric`` (a key of :data:`METRICS`) of one subgraph record; None where not measured."""
    if metric == "speedup":
        v = sub.get("speedup_vs_eager") or sub.get("paired_speedup_vs_eager")
    else:
        v = ((sub.get("times") or {}).get("candidate") or {}).get("graph_median_us")
    return float(v) if v else None


def compare(base: list[dict[str, Any]], other: list[dict[str, Any]], metric: str) -> list[dict[str, Any]]:
    """One row per subgraph of each evaluation in ``other`` whose candidate (same task, sweep seed,
    pass digest and subgraph) was also measured in ``base``: ``base``, ``other`` (the metric's
    values; a candidate measured more than once in ``base`` counts with the median of its values),
    ``diff`` and the ``device`` ``other`` ran it on."""
    ref: dict[tuple[Any, ...], list[float]] = {}
    for ev in base:
        for s in ev["subgraphs"]:
            if (v := metric_value(s, metric)) is not None:
                ref.setdefault((ev["task"], ev["seed"], ev["pass_sha256"], s["index"]), []).append(v)
    rows = []
    for ev in other:
        for s in ev["subgraphs"]:
            key = (ev["task"], ev["seed"], ev["pass_sha256"], s["index"])
            if (v := metric_value(s, metric)) is None or key not in ref:
                continue
            b = statistics.median(ref[key])
            rows.append({"task": ev["task"], "subgraph": s["index"], "device": ev["device"], "base": b, "other": v,
                         "diff": v / b - 1.0})
    return rows


def agreement(rows: list[dict[str, Any]], tolerance: float) -> dict[str, dict[str, Any]]:
    """Per device of ``rows``: ``pairs``, ``median_abs`` and ``worst_abs`` |diff|, and how many
    are ``within`` ``tolerance`` (a fraction, 0.03 for 3%)."""
    out = {}
    for dev in sorted({r["device"] for r in rows}):
        d = [abs(r["diff"]) for r in rows if r["device"] == dev]
        out[dev] = {"pairs": len(d), "median_abs": statistics.median(d), "worst_abs": max(d),
                    "within": sum(x <= tolerance for x in d)}
    return out


def longest_first(tasks: list[str], leases: list[dict[str, Any]]) -> list[str]:
    """``tasks`` by the seconds their evaluations held a device in ``leases`` (a warm-up's lease
    log), longest first, so no long task starts last and runs alone at the end of a sweep (the
    longest-processing-time-first rule of list scheduling). Ties keep their order in ``tasks``;
    tasks without an evaluation lease (IR inspections do not count: the measured sweeps find
    them cached) follow in their given order."""
    cost: dict[str, float] = {}
    for r in leases:
        if (r.get("purpose") or "evaluation") in ("evaluation", "confirmation") and r.get("end") is not None:
            cost[r.get("task")] = cost.get(r.get("task"), 0.0) + float(r["end"]) - float(r["start"])
    return sorted((t for t in tasks if t in cost), key=lambda t: -cost[t]) + [t for t in tasks if t not in cost]


def reference(phases: dict[str, Any]) -> str:
    """The 1-device sweep the checks compare the multi-device sweep with: the control where it
    finished every run (it ran right after the multi-device sweep, so the host's speed drifted
    least between the two), else the first 1-device sweep."""
    again = phases.get("single-again")
    return "single-again" if again and again["complete"] else "single"


def analyse(result: dict[str, Any], tolerance: float, min_ratio: float) -> dict[str, Any]:
    """The figures and checks of ``result`` (``phases``: name -> phase record).

    Returns ``throughput`` (``"other/base"`` -> {``ratio`` of solves per hour, ``comparable``:
    both sweeps finished every run}), ``agreement`` (``"other/base"`` -> metric -> per-device
    :func:`agreement`), ``reference`` (:func:`reference`) and ``checks`` ({check, ok, value})."""
    phases = result["phases"]
    a: dict[str, Any] = {"throughput": {}, "agreement": {}, "reference": reference(phases), "checks": []}
    for other, base in PAIRS:
        o, b = phases.get(other), phases.get(base)
        if not (o and b):
            continue
        key = f"{other}/{base}"
        if b["solves_per_hour"]:
            a["throughput"][key] = {"ratio": o["solves_per_hour"] / b["solves_per_hour"],
                                    "comparable": bool(o["complete"] and b["complete"])}
        a["agreement"][key] = {m: agreement(rows, tolerance) for m in METRICS
                               if (rows := compare(b["evaluation_records"], o["evaluation_records"], m))}
    checks = a["checks"]
    measured = [phases[k] for k in SWEEPS if phases.get(k)]
    worst = max((max(p["busy"]["max_per_device"].values(), default=0) for p in measured), default=0)
    n_leases = sum(len(p["leases"]) for p in measured)
    checks.append(("at most one evaluation per device at a time (every sweep)", n_leases > 0 and worst <= 1,
                   f"most at once on one device: {worst} ({count_noun(n_leases, 'lease')})"))
    multi, ref = phases.get("multi"), a["reference"]
    ref_name = "the control" if ref == "single-again" else "the first 1-device sweep"
    if multi:
        n, b = len(multi["devices"]), multi["busy"]
        checks.append((f"{n} evaluations at once, one per device, in the {n}-device sweep",
                       b["seconds_with_devices_busy"].get(n, 0.0) > 0,
                       f"most leases at once: {b['max_overall']}; all {n} devices busy "
                       f"{b['fraction_with_devices_busy'].get(n, 0.0):.0%} of its wall time"))
    if t := a["throughput"].get(f"multi/{ref}"):
        checks.append((f"throughput at least {min_ratio}x the reference 1-device sweep's", t["comparable"] and t["ratio"] >= min_ratio,
                       f"{t['ratio']:.2f}x against {ref_name}" + ("" if t["comparable"] else " (a sweep did not finish: not comparable)")))
    if multi and phases.get(ref):
        agree = a["agreement"].get(f"multi/{ref}", {})
        for m, label in METRICS.items():
            by = agree.get(m, {})
            ok = len(by) == len(multi["devices"]) and all(v["median_abs"] <= tolerance for v in by.values())
            medians = "; ".join(f"{d}: {v['median_abs']:.2%}" for d, v in by.items()) or "no candidate in both"
            checks.append((f"median over candidates of the {label} difference within {tolerance:.0%} on every device, "
                           "against the reference", ok, f"against {ref_name}: {medians}"))
    expected = result.get("multicast_env") or {}
    procs = [r for p in measured for r in p["processes"].values()]
    seen = sum(r["processes"] for r in procs)
    # Kept results count children whose switches were the measuring process's (they were off there).
    off = sum(r.get("multicast_off", r.get("multicast_as_parent", 0)) for r in procs)
    checks.append(("NVLink multicast off in every process the sweeps started", seen > 0 and off == seen and expected == MULTICAST_OFF,
                   f"{off}/{seen} sampled processes had " + ", ".join(f"{k}={v}" for k, v in expected.items())))
    a["checks"] = [{"check": c, "ok": bool(ok), "value": v} for c, ok, v in checks]
    return a


# --- the report -------------------------------------------------------------------------------------------


def code_text(phases: dict[str, Any]) -> str | None:
    """One line naming the code each phase ran (its ``code``: ``tools/evaluation/provenance.source_identity``
    at its start), or None where no phase recorded it."""
    def name(c: dict[str, Any]) -> str:
        commit = f"git commit {c['git_commit'][:12]}" + (" with uncommitted changes" if c.get("dirty") else "") \
            if c.get("git_commit") else "no git commit"
        return f"sources sha256 {c['source_sha256'][:12]} ({commit})"
    code = {k: p.get("code") for k, p in phases.items() if p.get("code")}
    if not code:
        return None
    if len({c["source_sha256"] for c in code.values()}) == 1 and len(code) == len(phases):
        return f"Code: passagent {name(next(iter(code.values())))} in every phase."
    return "**The phases ran different code:** " + "; ".join(f"{k}: {name(c) if c else 'no record'}"
                                                            for k, c in ((k, code.get(k)) for k in phases)) + "."


def throughput_text(a: dict[str, Any], n_devices: int) -> list[str]:
    """The headline throughput lines of the report."""
    def ratio(key: str, name: str) -> str | None:
        t = a["throughput"].get(key)
        if t is None:
            return None
        return f"**{t['ratio']:.2f}x** against {name}" if t["comparable"] else \
            f"{t['ratio']:.2f}x against {name} (a sweep did not finish: not comparable)"
    parts = [p for p in (ratio("multi/single", "the first 1-device sweep"), ratio("multi/single-again", "the control")) if p]
    lines = [f"Throughput ratio, {n_devices} devices / 1 device (solves per hour): " + ", ".join(parts)] if parts else []
    if t := a["throughput"].get("single-again/single"):
        lines.append(f"Host drift: the control's throughput was {t['ratio']:.2f}x the first 1-device sweep's"
                     + (" (1.00 with no drift)." if t["comparable"] else " (a sweep did not finish: not comparable)."))
    return lines


def markdown(result: dict[str, Any], tolerance: float) -> str:
    """The report of an analysed ``result`` (``result["analysis"]`` from :func:`analyse`)."""
    phases, a = {k: result["phases"][k] for k in SWEEPS if result["phases"].get(k)}, result["analysis"]
    n = len(result["multi_pool"])
    names = {**SWEEP_NAMES, "multi": f"{n} devices"}
    lines = [f"# multi_gpu_sweep {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(result['started_at']))} "
             f"on {result['machine']}" + (f", torch {result['torch']}" if result.get("torch") else ""), ""]
    if missing := [names[k] for k in ("single", "multi") if k not in phases]:
        lines += [f"Not in this result yet: {' and '.join(missing)} (no throughput or agreement without both).", ""]
    lines.append(f"Built-in policy over {count_noun(len(result['tasks']), 'task')} ({', '.join(result['tasks'])}), "
                 f"{result['seeds']} seed(s) each; {result['workers']} workers in every sweep; timing budget "
                 f"{result.get('timing_budget') or 'default'}; per run: max steps {result['max_steps']}, patience {result['patience']}.")
    order = next((p["task_order"]["tasks"] for k, p in phases.items() if k != "warmup" and p.get("task_order")), None)
    if order:
        lines.append(f"Task order of the measured sweeps: {', '.join(order)}.")
    if code := code_text(phases):
        lines.append(code)
    if p := result.get("prewarm_ir"):
        lines.append(f"IR inspections computed first: {p['subgraphs']} subgraphs, {p['parallel']} at a time, {p['wall_s']:.0f} s"
                     + (f", {len(p['errors'])} failed" if p["errors"] else "") + ".")
    lines += ["", "| sweep | devices | runs finished | evaluations | wall (s) | solves per hour | device busy (s) | "
              "most leases on one device | most leases at once | all devices busy |", "|---|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for key, p in phases.items():
        b = p["busy"]
        busy = ", ".join(f"{d} {s:.0f}" for d, s in b["busy_s"].items()) or "-"
        lines.append(f"| {names[key]} | {','.join(p['devices'])} | {p['finished_runs']}/{p['planned_runs']}"
                     f"{'' if p['complete'] else ' (incomplete)'} | {p['evaluations']} | {p['wall_s']:.0f} | "
                     f"{p['solves_per_hour']:.0f} | {busy} | {max(b['max_per_device'].values(), default=0)} | "
                     f"{b['max_overall']} | {b['fraction_with_devices_busy'].get(len(p['devices']), 0.0):.0%} |")
    if head := throughput_text(a, n):
        lines += [""] + [x for line in head for x in (line, "")][:-1]
    if any(a["agreement"].values()):
        lines += ["", "Timing agreement per candidate (same task, seed, pass digest and subgraph; diff = other / 1-device - 1), "
                  "per device of the other sweep:", "",
                  f"| sweep | against | timing | device | pairs | median abs diff | worst abs diff | within {tolerance:.0%} |",
                  "|---|---|---|---|---:|---:|---:|---:|"]
        for key, by_metric in a["agreement"].items():
            other, base = key.split("/")
            for m, by in by_metric.items():
                lines += [f"| {names[other]} | {names[base]} | {METRICS[m]} | {d} | {v['pairs']} | "
                          f"{v['median_abs']:.2%} | {v['worst_abs']:.2%} | {v['within']}/{v['pairs']} |" for d, v in by.items()]
    procs: dict[str, list[Any]] = {}
    for p in phases.values():
        for role, r in p.get("processes", {}).items():
            q = procs.setdefault(role, [0, 0, set()])
            q[0] += r["processes"]
            q[1] += r.get("multicast_off", r.get("multicast_as_parent", 0))
            q[2].update(r["cuda_visible_devices"])
    if procs:
        lines += ["", "Processes the sweeps started (sampled from /proc):", "",
                  "| role | processes | NVLink multicast off | CUDA_VISIBLE_DEVICES seen |", "|---|---:|---:|---|"]
        lines += [f"| {role} | {q[0]} | {q[1]} | {', '.join(sorted(q[2]))} |" for role, q in sorted(procs.items())]
    if a["checks"]:
        ref = "the control" if a["reference"] == "single-again" else "the first 1-device sweep"
        if result["multi_pool"][0].startswith("cpu"):
            lines += ["", "CPU dry run: the stand-in slots share the CPU's cores, so agreement and throughput mean "
                      "nothing here; the checks are for GPUs."]
        lines += ["", f"Checks, against the reference 1-device sweep: {ref} (the control where it finished every run, as it "
                  "ran right after the multi-device sweep; else the first):", "", "| check | result | value |", "|---|---|---|"]
        lines += [f"| {c['check']} | {'PASS' if c['ok'] else 'FAIL'} | {c['value']} |" for c in a["checks"]]
    return "\n".join(lines)


def load_state(path: Path) -> dict[str, Any]:
    """A saved result (a work folder's ``state.json``, the ``--out`` JSON, or a gzipped copy,
    ``*.json.gz``), with the busy profiles' integer keys (numbers of devices busy at once)
    restored: JSON turns them into strings.

    Raises FileNotFoundError, ValueError (not JSON, or no ``phases`` object of phase objects),
    OSError or EOFError (a broken gzip file)."""
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


def report(path: Path, tolerance: float, min_ratio: float) -> int:
    """``--report``: a saved result's figures recomputed and printed; exit 0 when every check
    passes, 1 when one fails, 2 (one line on stderr) when the file is missing or not a result."""
    try:
        result = load_state(path)
        result["analysis"] = analyse(result, tolerance, min_ratio)
        text = markdown(result, tolerance)
    except FileNotFoundError:
        print(f"--report {path}: no such file", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError) as e:  # gzip: OSError, EOFError
        print(f"--report {path}: not a multi_gpu_sweep result ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    print(text)
    return 0 if all(c["ok"] for c in result["analysis"]["checks"]) else 1
