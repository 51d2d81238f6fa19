"""Does host load leak into the harness's CUDA-graph replay times, and does the guard stop it?

``tools/measure/timing.graph_replay_medians`` times each replay of a captured CUDA graph with CUDA events
after an L2 flush. Without a guard, the start event is reached as soon as the flush ends; if the
host then needs longer to submit the replay than the flush took (its CPU busy with other work),
the GPU idles inside the timed interval and the "device time" includes host time. The guard is a
GPU spin (``torch.cuda._sleep``) between the flush and the start event, long enough for the
submission; replays whose submission outran it are dropped (``tools/measure/timing._CudaClock``).

This script times three eager variants (4, 15 and 63 µs of device time on an H200, spanning the
built-in tasks' candidates, 5-52 µs) with ``graph_replay_medians`` under four conditions, each
``--repeats`` times: host idle or loaded (``--load-procs`` processes spinning on the CPU, default
twice the CPU count) x guard off or on. All idle rounds run first, then all loaded ones; within a
round the guard is off, then on. Reported per condition and variant: the
median, smallest and largest of the repeats' medians, and the median's ratio to the idle,
guarded one. The check: with the guard, the loaded medians are within 3% of the idle ones.

    PYTHONUNBUFFERED=1 python benchmarks/graph_replay_guard.py [--repeats 15] [--load-procs N] [--out FILE.json]

Needs CUDA (exits 2 without it). Prints a Markdown table; exit 1 if the check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import torch

from passagent.tools.evaluation.provenance import source_identity
from passagent.tools.measure.timing import graph_replay_medians

TOLERANCE = 0.03


def variants(device: torch.device) -> tuple[dict[str, Callable[..., Any]], list[torch.Tensor]]:
    """Three capturable eager variants and their arguments: one pointwise kernel on 64K float32,
    a chain of eight such kernels, and a 1024x1024 float32 matmul."""
    def one_kernel(a, b):
        return a * 1.0001

    def eight_kernels(a, b):
        x = a
        for _ in range(4):
            x = (x * 1.0001).relu()
        return x

    def matmul(a, b):
        return b @ b

    args = [torch.randn(65536, device=device), torch.randn(1024, 1024, device=device)]
    return {"1 pointwise kernel, 64K float32": one_kernel, "8 pointwise kernels, 64K float32": eight_kernels,
            "matmul 1024x1024 float32": matmul}, args


def measure(repeats: int, load_procs: int, budget_s: float) -> dict[str, Any]:
    """``repeats`` rounds of the four conditions on ``cuda`` (each call with a ``budget_s``-second
    budget), idle first, then with ``load_procs`` CPU spinners. Returns the host facts and
    ``runs``: condition -> one record per call with ``medians`` (variant -> µs, or None),
    ``dropped``, ``guard_us`` (µs), ``kept`` and ``attempted`` (guard on) or empty extras (guard off).
    Raises RuntimeError (from torch) without CUDA."""
    device = torch.device("cuda")
    fns, args = variants(device)
    runs: dict[str, list[dict[str, Any]]] = {}

    def one_round(load: str) -> None:
        for guard in (False, True):
            info: dict[str, Any] = {}
            med = graph_replay_medians(fns, args, device, budget_s=budget_s, guard=guard, info=info)
            runs.setdefault(f"{load}, guard {'on' if guard else 'off'}", []).append({"medians": med, **info})

    for _ in range(repeats):
        one_round("idle")
    procs: list[subprocess.Popen] = []
    try:
        for _ in range(load_procs):  # pure-Python spinners: no torch, no CUDA in them
            procs.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        time.sleep(1.0)
        for _ in range(repeats):
            one_round("loaded")
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
    return {"device": torch.cuda.get_device_name(device), "torch": torch.__version__, "cpus": os.cpu_count(),
            "source": source_identity(Path(__file__).resolve().parent.parent),  # this checkout, not an installed copy
            "load_procs": load_procs, "repeats": repeats, "budget_s": budget_s, "variants": list(fns), "runs": runs}


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    """Per condition and variant: median, min and max over repeats of the calls' medians (µs), how
    many calls gave one (``n``), replays dropped in that condition's calls (all variants), and the
    median's ratio to the idle, guarded one. ``check``: every loaded, guarded ratio within
    :data:`TOLERANCE` of 1 (False if there is none)."""
    table: dict[str, dict[str, dict[str, float | None]]] = {}
    for cond, rs in result["runs"].items():
        table[cond] = {}
        for v in result["variants"]:
            ms = [r["medians"][v] for r in rs if r["medians"].get(v)]
            table[cond][v] = {"median": statistics.median(ms) if ms else None, "min": min(ms, default=None),
                              "max": max(ms, default=None), "n": len(ms), "dropped": sum(r.get("dropped", 0) for r in rs)}
    ref = table.get("idle, guard on", {})
    for cond in table.values():
        for v, row in cond.items():
            base = (ref.get(v) or {}).get("median")
            row["ratio"] = row["median"] / base if row["median"] and base else None
    loaded = table.get("loaded, guard on", {})
    worst = max((abs(r["ratio"] - 1) for r in loaded.values() if r["ratio"]), default=None)
    return {"table": table, "worst_loaded_guarded_diff": worst,
            "check": worst is not None and worst <= TOLERANCE}


def markdown(result: dict[str, Any], summary: dict[str, Any]) -> str:
    lines = [f"# graph_replay_guard on {result['device']}, torch {result['torch']}, {result['cpus']} CPUs; "
             f"load: {result['load_procs']} spinning processes; {result['repeats']} repeats per condition", "",
             "| condition | variant | median of medians (us) | min | max | ratio to idle, guard on | replays dropped |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for cond, rows in summary["table"].items():
        for v, r in rows.items():
            def f(x: float | None) -> str:
                return f"{x:.2f}" if x is not None else "-"

            lines.append(f"| {cond} | {v} | {f(r['median'])} | {f(r['min'])} | {f(r['max'])} | "
                         f"{f(r['ratio'])} | {r['dropped'] if cond.endswith('on') else '-'} |")
    w = summary["worst_loaded_guarded_diff"]
    lines += ["", "| check | result | value |", "|---|---|---|",
              f"| with the guard, loaded medians within {TOLERANCE:.0%} of idle ones (every variant) | "
              f"{'PASS' if summary['check'] else 'FAIL'} | worst {'-' if w is None else f'{w:.1%}'} |"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--load-procs", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--budget", type=float, default=0.3, help="seconds per graph_replay_medians call (the harness's default)")
    ap.add_argument("--out", type=Path, help="also write the raw result and summary as JSON")
    a = ap.parse_args(argv)
    if not torch.cuda.is_available():
        print("graph_replay_guard: needs CUDA", file=sys.stderr)
        return 2
    result = measure(a.repeats, a.load_procs, a.budget)
    summary = summarise(result)
    print(markdown(result, summary))
    if a.out:
        a.out.write_text(json.dumps({**result, "summary": summary}, indent=1))
    return 0 if summary["check"] else 1


if __name__ == "__main__":
    sys.exit(main())
