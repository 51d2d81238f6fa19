"""Repeatability of the harness's timing: the same callables timed twice in one process.

For each subgraph, eager, default Inductor and a candidate are timed with the harness's own
timing loop (``tools/timing.time_interleaved`` with the device's default ``TimingConfig``, as an
evaluation times them), and then timed again the same way. The candidate is the task's example
pass + Inductor where the repository has one (shared tasks b511 and 623d, built-in task_035 with
its Triton kernel), else default Inductor compiled a second time, standing in for a candidate
that matched nothing. Reported per subgraph: each variant's two medians and their disagreement
``|m2 - m1| / m1``; then the median and the worst disagreement over all subgraphs (the target of
SCORING.md's repeatability target: 2% median / 10% worst against eager, 1% / 5% against Inductor).

On CUDA, the CUDA-graph replay medians (``*_graph``: each variant's device time with no host in
the loop, ``TimingStats.graph_median_us``) are compared the same way.

Also reported: the agreement of the two measurements' ratios of medians (baseline median /
candidate median, each from one interleaved measurement).

Estimator rows ``speedup_vs_{eager,inductor}:{estimator}``: other estimates of the same speedup,
computed from the same two measurements' samples (``time_interleaved(samples_out=...)``, paired by
round; no extra timing) by ``tools/timing.speedup_estimates``: ``ratio_of_medians`` (equal to the
``speedup_vs_*`` row), ``median_of_paired_ratios`` (the score's, SCORING.md), ``ratio_of_p10``,
``ratio_of_trimmed_means`` and ``ratio_of_minimums``. Each row's ``diff`` is ``|s2 - s1| / s1``; a
lower median/worst diff means an estimator more repeatable on this machine (its bias relative to
one another is a separate question: compare the ``m1``/``m2`` values in the JSON).

``--timing-budget SECONDS`` replaces ``TimingConfig.budget_s`` (default: ``for_device``'s, 0.75 s
on CUDA, 0.5 s on the CPU) to try a longer (or shorter) measurement window.

For contrast, the candidate is also timed naively: the median of 100 back-to-back calls, each
between two ``synchronize()`` calls, no interleaving, warm-up of one call, garbage collector on.

    PYTHONUNBUFFERED=1 python benchmarks/timing_repeatability.py [--device cuda] [--builtin 10] [--per-task 3]
        [--pin off|on|both] [--timing-budget SECONDS]

Prints a Markdown table last; ``--out DIR`` also writes the JSON (gzip, with every measurement's raw paired samples), which
``--analyse DIR/timing_repeatability.json.gz`` reads again for the stopping-rule table.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import torch

from passagent.tools.backend import PassBackend
from passagent.tools.builtin_tasks import load_manifest, resolve_builtin
from passagent.tools.inputs import clone_inputs, synthesize_inputs
from passagent.tools.passes import load_rules
from passagent.tools.tasks import load_task
from passagent.tools.timing import SPEEDUP_ESTIMATORS, TimingConfig, paired_ratio_ci, speedup_estimates, time_interleaved
from passagent.tools.worker import build_module

REPO = Path(__file__).resolve().parent.parent
BASELINES = ("eager", "inductor")
SHARED = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared"))
EXAMPLES = REPO / "examples" / "passes"
WITH_PASSES = [  # (task, example pass)
    (next((SHARED / "data" / "passbench" / "typical").glob("b511*"), None), EXAMPLES / "b511_pooler_dir"),
    (next((SHARED / "data" / "passbench" / "typical").glob("623d*"), None), EXAMPLES / "623d_drop_dead_rand.py"),
    (REPO / "bench" / "tasks" / "task_035", EXAMPLES / "task035_rms_norm_triton"),
]


def _naive_median(fn: Any, args: list[Any], device: torch.device, calls: int = 100) -> float:
    fn(*clone_inputs(args))
    samples = []
    for _ in range(calls):
        a = clone_inputs(args)
        if device.type == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn(*a)
        if device.type == "cuda":
            torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(samples)


def _config(device: torch.device, pin: str, timing_budget: float | None) -> TimingConfig:
    """The device's default ``TimingConfig`` (as an evaluation uses), with the thread pinned for
    ``--pin on`` and ``budget_s`` replaced by ``--timing-budget`` if given (seconds)."""
    config = dataclasses.replace(TimingConfig.for_device(device), pin_thread=pin == "on")
    return config if timing_budget is None else dataclasses.replace(config, budget_s=timing_budget)


def _estimator_rows(first: dict[str, list[float]], second: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """``speedup_vs_{base}:{estimator}`` -> ``{m1, m2, diff}`` from the two measurements' paired
    samples (µs, ``time_interleaved``'s ``samples_out``); ``diff = |m2 - m1| / m1``."""
    rows = {}
    for base in BASELINES:
        e1 = speedup_estimates(first[base], first["candidate"])
        e2 = speedup_estimates(second[base], second["candidate"])
        for est in SPEEDUP_ESTIMATORS:
            rows[f"speedup_vs_{base}:{est}"] = {"m1": e1[est], "m2": e2[est], "diff": abs(e2[est] - e1[est]) / e1[est]}
    return rows


def measure_subgraph(sg: Any, pass_path: Path | None, device: torch.device, tag: str, pin: str = "off",
                     timing_budget: float | None = None) -> dict[str, Any]:
    torch._dynamo.reset()
    draws = [[a.to(device) if isinstance(a, torch.Tensor) else a for a in synthesize_inputs(sg, k)] for k in range(3)]
    eager = build_module(sg, device, f"{tag}_eager")
    inductor = torch.compile(build_module(sg, device, f"{tag}_inductor"), backend="inductor")
    if pass_path is not None and pass_path.exists():
        candidate = torch.compile(build_module(sg, device, f"{tag}_cand"), backend=PassBackend(load_rules(pass_path)))
        kind = pass_path.name
    else:
        candidate = torch.compile(build_module(sg, device, f"{tag}_cand"), backend="inductor")
        kind = "Inductor (stand-in)"
    variants = {"eager": eager, "inductor": inductor, "candidate": candidate}
    config = _config(device, pin, timing_budget)
    with torch.no_grad():
        for fn in variants.values():
            fn(*clone_inputs(draws[0]))  # compile outside the measurement

        def fresh(i: int) -> list[Any]:
            return clone_inputs(draws[i % len(draws)])

        samples1: dict[str, list[float]] = {}
        samples2: dict[str, list[float]] = {}
        t0 = time.perf_counter()
        first = time_interleaved(variants, fresh, device=device, config=config, samples_out=samples1)
        t1 = time.perf_counter()
        second = time_interleaved(variants, fresh, device=device, config=config, samples_out=samples2)
        naive = [_naive_median(candidate, draws[0], device) for _ in range(2)]
        # --pin both: the same pair of measurements again with the timing thread on one core,
        # right after the unpinned pair (so both see the same state of the machine).
        pinned = [time_interleaved(variants, fresh, device=device, config=dataclasses.replace(config, pin_thread=True))
                  for _ in range(2)] if pin == "both" else None
    row: dict[str, Any] = {"subgraph": sg.name, "source": sg.source, "dtypes": list(sg.dtypes), "candidate_kind": kind,
                           "measure_s": t1 - t0, "budget_s": config.budget_s,
                           # The raw paired samples (µs, round order) of both measurements, for
                           # :func:`stop_rule_rows`: what an earlier stop would have given.
                           "samples": [{n: [round(x, 2) for x in v] for n, v in m.items()} for m in (samples1, samples2)]}
    for name in variants:
        m1, m2 = first[name].median_us, second[name].median_us
        row[name] = {"m1_us": m1, "m2_us": m2, "n1": first[name].n, "n2": second[name].n,
                     "kernel1_us": first[name].kernel_median_us, "kernel2_us": second[name].kernel_median_us,
                     "diff": abs(m2 - m1) / m1}
        g1, g2 = first[name].graph_median_us, second[name].graph_median_us
        if g1 and g2:  # CUDA-graph replay: device time with no host in the loop
            row[f"{name}_graph"] = {"m1_us": g1, "m2_us": g2, "diff": abs(g2 - g1) / g1}
    if pinned is not None:
        for name in variants:
            m1, m2 = pinned[0][name].median_us, pinned[1][name].median_us
            row[f"{name}_pinned"] = {"m1_us": m1, "m2_us": m2, "diff": abs(m2 - m1) / m1}
        for base in ("eager", "inductor"):
            s1 = pinned[0][base].median_us / pinned[0]["candidate"].median_us
            s2 = pinned[1][base].median_us / pinned[1]["candidate"].median_us
            row[f"speedup_vs_{base}_pinned"] = {"m1": s1, "m2": s2, "diff": abs(s2 - s1) / s1}
    row["naive_candidate"] = {"m1_us": naive[0], "m2_us": naive[1], "diff": abs(naive[1] - naive[0]) / naive[0]}
    for base in BASELINES:  # ratio of medians: baseline / candidate from the same rounds
        s1 = first[base].median_us / first["candidate"].median_us
        s2 = second[base].median_us / second["candidate"].median_us
        row[f"speedup_vs_{base}"] = {"m1": s1, "m2": s2, "diff": abs(s2 - s1) / s1}
    row.update(_estimator_rows(samples1, samples2))  # other estimators, same samples
    return row


def _stop_round(samples: dict[str, list[float]], target: float, min_rounds: int, block: int) -> int:
    """Recorded rounds after which ``TimingConfig(paired_ci=target)`` would have stopped a
    measurement that went on to ``samples``' full length: the first check (after ``min_rounds``,
    then every ``block`` rounds) at which :func:`~passagent.tools.timing.paired_ratio_ci` of the
    rounds so far is within ``target``; the full length if none is."""
    n = min(len(v) for v in samples.values())
    k = min_rounds
    while k < n:
        if paired_ratio_ci({name: v[:k] for name, v in samples.items()}) <= target:
            return k
        k += block
    return n


def stop_rule_rows(rows: list[dict[str, Any]], targets: tuple[float, ...] = (0.0025, 0.005, 0.01, 0.02),
                   min_rounds: int = 100, block: int = 25) -> list[dict[str, Any]]:
    """What stopping on the paired ratios would have done to these measurements, from their saved
    samples (``row["samples"]``): for each ``paired_ci`` target, the median share of each
    measurement's rounds it keeps, the median estimated seconds of timing per measurement
    (``measure_s`` times that share), and the repeatability of the score's estimator (median of
    per-round ratios, against eager and Inductor) between the two truncated measurements: median
    and worst ``|s2 - s1| / s1`` over subgraphs. ``None`` is the measurement as it ran."""
    out = []
    for target in (None, *targets):
        shares, seconds, diffs = [], [], {b: [] for b in BASELINES}
        for r in rows:
            if "samples" not in r:
                continue
            cut = []
            for m in r["samples"]:
                n = min(len(v) for v in m.values())
                k = n if target is None else _stop_round(m, target, min_rounds, block)
                shares.append(k / n)
                cut.append({name: v[:k] for name, v in m.items()})
            seconds.append(r["measure_s"] * shares[-2])
            for b in BASELINES:
                e = [speedup_estimates(c[b], c["candidate"])["median_of_paired_ratios"] for c in cut]
                diffs[b].append(abs(e[1] - e[0]) / e[0])
        if not seconds:
            break
        row = {"paired_ci": target, "rounds_kept": statistics.median(shares), "timing_s": statistics.median(seconds)}
        for b in BASELINES:
            row[f"vs_{b}_median"], row[f"vs_{b}_worst"] = statistics.median(diffs[b]), max(diffs[b])
        out.append(row)
    return out


def stop_rule_table(rows: list[dict[str, Any]]) -> list[str]:
    """Markdown lines of :func:`stop_rule_rows`."""
    lines = ["| paired_ci | rounds kept (median) | timing s per measurement (median) | vs eager median / worst | "
             "vs Inductor median / worst |", "|---|---:|---:|---:|---:|"]
    for r in stop_rule_rows(rows):
        label = "as run" if r["paired_ci"] is None else f"{r['paired_ci']:.2%}"
        lines.append(f"| {label} | {r['rounds_kept']:.0%} | {r['timing_s']:.2f} | {r['vs_eager_median']:.2%} / "
                     f"{r['vs_eager_worst']:.2%} | {r['vs_inductor_median']:.2%} / {r['vs_inductor_worst']:.2%} |")
    return lines


def _summary_order() -> list[str]:
    """Summary rows: each variant's medians (end-to-end, naive, CUDA-graph replay, pinned), then
    the score's speedups, then the estimator rows grouped by baseline (ratio_of_medians first: it
    repeats the ``speedup_vs_*`` row above it, as a check)."""
    variants = ["eager", "inductor", "candidate", "naive_candidate", "eager_graph", "inductor_graph", "candidate_graph",
                "eager_pinned", "inductor_pinned", "candidate_pinned"]
    speedups = [f"speedup_vs_{b}{suffix}" for suffix in ("", "_pinned") for b in BASELINES]
    return variants + speedups + [f"speedup_vs_{b}:{e}" for b in BASELINES for e in SPEEDUP_ESTIMATORS]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--builtin", type=int, default=10, help="built-in long-tail tasks besides the ones with example passes")
    ap.add_argument("--per-task", type=int, default=3, help="subgraphs per built-in task (the tasks with example "
                    "passes, measured first, always contribute all their subgraphs)")
    ap.add_argument("--budget", type=float, default=420.0, help="seconds after which no new subgraph starts")
    ap.add_argument("--pin", choices=("off", "on", "both"), default="off",
                    help="timing thread on one CPU core: off, on, or both (each subgraph's pair of measurements "
                         "is repeated pinned; rows *_pinned)")
    ap.add_argument("--timing-budget", type=float, default=None, metavar="SECONDS",
                    help="replace TimingConfig.budget_s, the wall time of one measurement of all variants "
                         "(default: TimingConfig.for_device's, 0.75 s on CUDA, 0.5 s on the CPU)")
    ap.add_argument("--out", type=Path, default=Path(os.environ["OUT"]) if os.environ.get("OUT") else None)
    ap.add_argument("--analyse", type=Path, default=None, metavar="JSON",
                    help="no timing: print the stopping-rule table of a saved timing_repeatability.json")
    args = ap.parse_args()
    if args.analyse is not None:
        opener = gzip.open if args.analyse.suffix == ".gz" else open
        with opener(args.analyse, "rt") as f:
            print("\n".join(stop_rule_table(json.load(f)["rows"])))
        return
    device = torch.device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(1)  # as an evaluation times on the CPU (EvalOptions.cpu_threads)

    jobs: list[tuple[str, Any, Path | None]] = []
    for task_dir, pass_path in WITH_PASSES:
        if task_dir is not None and task_dir.exists():
            if pass_path.name.startswith("task035") and device.type != "cuda":
                continue  # Triton kernels run on CUDA only
            task = load_task(task_dir)
            jobs += [(task.id[:12], sg, pass_path) for sg in task.subgraphs]
    used = {"task_035"}
    builtin = [r["id"] for r in load_manifest() if r.get("long_tail") and r["id"] not in used][: args.builtin]
    for tid in builtin:
        task = load_task(resolve_builtin(tid))
        jobs += [(tid, sg, None) for sg in task.subgraphs[: args.per_task]]

    rows, start = [], time.time()
    for k, (tid, sg, pass_path) in enumerate(jobs):
        if time.time() - start > args.budget:
            print(f"time budget reached: {len(jobs) - k} subgraph(s) not measured", flush=True)
            break
        try:
            row = measure_subgraph(sg, pass_path, device, f"r{k}", args.pin, args.timing_budget)
        except Exception as exc:  # one broken subgraph must not end the benchmark
            print(f"{tid} {sg.name}: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
            continue
        row["task"] = tid
        rows.append(row)
        print(f"{tid} {sg.name}: candidate {row['candidate']['m1_us']:.1f} / {row['candidate']['m2_us']:.1f} us "
              f"({row['candidate']['diff']:.2%}), naive {row['naive_candidate']['diff']:.2%}", flush=True)

    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    lines = [f"Timing repeatability on {name}, torch {torch.__version__}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
             f"{len(rows)} subgraphs from {len({r['task'] for r in rows})} tasks, each variant timed twice "
             f"(TimingConfig.for_device('{device.type}')"
             + ("" if args.timing_budget is None else f", budget_s={args.timing_budget:g}") + ")"
             + {"on": ", timing thread pinned to one core", "both": "; then twice more with the timing thread pinned to "
                "one core (rows *_pinned in the summary)"}.get(args.pin, "") + "", "",
             "| task | subgraph | dtype | candidate | eager m1/m2 (us) | Inductor m1/m2 (us) | candidate m1/m2 (us) | calls | cand. diff | naive diff |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        c = r["candidate"]
        lines.append(f"| {r['task']} | {r['subgraph']} | {','.join(r['dtypes'])} | {r['candidate_kind']} | "
                     f"{r['eager']['m1_us']:.1f} / {r['eager']['m2_us']:.1f} | {r['inductor']['m1_us']:.1f} / {r['inductor']['m2_us']:.1f} | "
                     f"{c['m1_us']:.1f} / {c['m2_us']:.1f} | {c['n1']} | {c['diff']:.2%} | {r['naive_candidate']['diff']:.2%} |")
    lines += ["", "| variant | median diff | worst diff | within 1% | within 5% |", "|---|---:|---:|---:|---:|"]
    summary = {}
    for v in _summary_order():
        d = [r[v]["diff"] for r in rows if v in r]
        if d:
            summary[v] = {"median": statistics.median(d), "worst": max(d)}
            lines.append(f"| {v} | {statistics.median(d):.2%} | {max(d):.2%} | {sum(x <= 0.01 for x in d)}/{len(d)} | {sum(x <= 0.05 for x in d)}/{len(d)} |")
    if any("samples" in r for r in rows):
        lines += ["", "Stopping on the paired ratios (TimingConfig.paired_ci), simulated on the saved samples:", ""]
        lines += stop_rule_table(rows)
    text = "\n".join(lines)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        # Compressed: the saved samples are megabytes of text.
        with gzip.open(args.out / "timing_repeatability.json.gz", "wt") as f:
            json.dump({"rows": rows, "summary": summary, "timing_budget_s": args.timing_budget}, f)
        (args.out / "timing_repeatability.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
