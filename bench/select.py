"""Baselines of every candidate subgraph (eager vs default Inductor on this machine), and task selection.

Measuring is the slow part of a build: each subgraph is compiled by Inductor (a C++ compile on
the CPU) and timed against eager. Subgraphs are measured in batches, each batch in one fresh
worker process (``python -m passagent.bench.select REQUEST.json``), so a compile that crashes
or hangs costs one batch, never the build; results are appended to a JSON-lines file as each
subgraph finishes, so an interrupted build resumes where it stopped. A subgraph whose worker
died is retried alone once, then recorded as failed.

Per subgraph the worker records: eager and Inductor median times and quartiles (µs, timed
interleaved with fresh inputs per call, :func:`passagent.tools.measure.timing.time_interleaved` with
:data:`FAST_TIMING`), Inductor's kernel count (generated C++ kernels plus external and
fallback calls in the compiled wrapper), and Inductor's largest absolute error against eager.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from passagent.tools.measure.timing import TimingConfig

#: Timing of one subgraph's baselines: short, since a build measures hundreds.
FAST_TIMING = TimingConfig(warmup=3, min_calls=10, max_calls=100, budget_s=0.15, noisy_iqr=0.3, max_remeasure=1)
#: A task whose Inductor speedup over eager is below this counts as long-tail.
LONG_TAIL_SPEEDUP = 1.1

_KERNEL_CALL = re.compile(r"^\s*(?:\w+ = )?(cpp_fused_\w+|extern_kernels\.\w+|torch\.ops\.[\w.]+)\(")


def count_kernels(sources: list[str]) -> int:
    """Kernels Inductor's compiled wrapper launches: C++ kernels, external and fallback calls.

    Args:
        sources: the generated module sources (``torch._inductor.utils.run_and_get_code``).
    """
    total = 0
    for src in sources:
        start = src.find("def call(")
        if start < 0:
            continue
        body = src[start:]
        end = re.search(r"\n\S", body)
        body = body[: end.start()] if end else body
        total += sum(1 for line in body.splitlines() if _KERNEL_CALL.match(line))
    return total


# --- worker side ------------------------------------------------------------------------------


def measure_subgraph(folder: Path, timing: TimingConfig = FAST_TIMING) -> dict[str, Any]:
    """Measure one GraphNet sample folder: eager and default-Inductor times, kernels, error.

    Returns:
        ``{"ok": True, "eager_us", "inductor_us", "eager_q1_us", ..., "kernels", "inductor_max_abs",
        "nonfinite"}``, or ``{"ok": False, "stage", "error"}`` when a step raised.
    """
    import torch
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    from passagent.tools.tasks.inputs import clone_inputs, synthesize_inputs
    from passagent.tools.tasks.loader import load_subgraph
    from passagent.tools.measure.timing import time_interleaved
    from passagent.tools.evaluation.steps import build_module

    torch._dynamo.config.suppress_errors = False
    inductor_config.fallback_random = True
    stage = "load"
    t0 = time.perf_counter()
    try:
        sg = load_subgraph(folder)
        args = synthesize_inputs(sg, 0)
        cpu = torch.device("cpu")
        stage = "eager"
        eager = build_module(sg, cpu, "eager")
        with torch.no_grad():
            ref = eager(*clone_inputs(args))
        ref_t = [r for r in (ref if isinstance(ref, (tuple, list)) else [ref]) if isinstance(r, torch.Tensor)]
        nonfinite = any(r.is_floating_point() and not bool(torch.isfinite(r).all()) for r in ref_t)
        stage = "inductor"
        compiled = torch.compile(build_module(sg, cpu, "inductor"), backend="inductor")
        with torch.no_grad():
            got, sources = run_and_get_code(compiled, *clone_inputs(args))
        got_t = [g for g in (got if isinstance(got, (tuple, list)) else [got]) if isinstance(g, torch.Tensor)]
        err = 0.0
        for r, g in zip(ref_t, got_t):
            if r.is_floating_point() and r.numel():
                d = (r.float() - g.float()).abs()
                d = d[torch.isfinite(d)]
                err = max(err, float(d.max()) if d.numel() else 0.0)
        stage = "timing"
        with torch.no_grad():
            stats = time_interleaved({"eager": eager, "inductor": compiled}, lambda *_: clone_inputs(args), config=timing)
    except Exception as exc:  # noqa: BLE001 - reported per subgraph, the batch goes on
        first = str(exc).strip().splitlines()
        return {"ok": False, "stage": stage, "error": f"{type(exc).__name__}: {first[0][:300] if first else ''}"}
    finally:
        torch._dynamo.reset()
    e, i = stats["eager"], stats["inductor"]
    return {
        "ok": True,
        "eager_us": round(e.median_us, 2), "eager_q1_us": round(e.q1_us, 2), "eager_q3_us": round(e.q3_us, 2),
        "inductor_us": round(i.median_us, 2), "inductor_q1_us": round(i.q1_us, 2), "inductor_q3_us": round(i.q3_us, 2),
        "calls": e.n, "kernels": count_kernels(sources), "inductor_max_abs": err, "nonfinite": nonfinite,
        "wall_s": round(time.perf_counter() - t0, 2),
    }


def worker_main(request_path: str) -> int:
    """Entry point of a measurement worker: measure the request's folders, one JSON line each."""
    req = json.loads(Path(request_path).read_text())
    timing = TimingConfig(**req.get("timing", asdict(FAST_TIMING)))
    with open(req["results"], "a") as out:
        for item in req["items"]:
            result = {"id": item["id"], **measure_subgraph(Path(item["folder"]), timing)}
            out.write(json.dumps(result) + "\n")
            out.flush()
            os.fsync(out.fileno())
    return 0


# --- parent side ------------------------------------------------------------------------------


def read_results(path: Path) -> dict[str, dict[str, Any]]:
    """Measurements recorded so far, by subgraph id (a torn last line is ignored)."""
    out: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[row["id"]] = row
    return out


def measure_all(
    items: list[tuple[str, Path]],
    results: Path,
    *,
    batch_size: int = 24,
    timeout_per_item_s: float = 120.0,
    env: dict[str, str] | None = None,
    on_progress: Callable[[int], None] | None = None,
    timing: TimingConfig = FAST_TIMING,
) -> dict[str, dict[str, Any]]:
    """Measure every ``(id, folder)`` not yet in ``results``, in worker batches; resumable.

    Args:
        items: subgraph ids and their sample folders.
        results: the JSON-lines file results are appended to (and read back from).
        batch_size: subgraphs per worker process.
        timeout_per_item_s: a worker is killed when no subgraph has finished for this long.
        env: the workers' environment (Inductor's cache dir, thread counts).
        on_progress: called with the number of newly finished subgraphs.
        timing: timing settings.

    Returns:
        id -> result row for every item.
    """
    done = read_results(results)
    todo = [(i, f) for i, f in items if i not in done]
    if on_progress:
        on_progress(len(items) - len(todo))
    queue = [todo[k : k + batch_size] for k in range(0, len(todo), batch_size)]
    retried: set[str] = set()
    while queue:
        batch = queue.pop(0)
        before = set(read_results(results))
        _run_worker(batch, results, timeout_per_item_s, env, timing)
        after = read_results(results)
        finished = [i for i, _ in batch if i in after and i not in before]
        if on_progress:
            on_progress(len(finished))
        missing = [(i, f) for i, f in batch if i not in after]
        if missing:
            # The worker died on the first missing one: retry each missing subgraph alone once.
            first, rest = missing[0], missing[1:]
            if first[0] in retried:
                with open(results, "a") as out:
                    out.write(json.dumps({"id": first[0], "ok": False, "stage": "worker", "error": "the measurement worker crashed or timed out"}) + "\n")
                if on_progress:
                    on_progress(1)
            else:
                retried.add(first[0])
                queue.insert(0, [first])
            if rest:
                queue.insert(1 if first[0] in retried else 0, rest)
    return read_results(results)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _run_worker(batch: list[tuple[str, Path]], results: Path, timeout_s: float, env: dict[str, str] | None,
                timing: TimingConfig) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"results": str(results), "timing": asdict(timing),
                   "items": [{"id": i, "folder": str(p)} for i, p in batch]}, f)
        request = f.name
    try:
        proc = subprocess.Popen([sys.executable, "-m", "passagent.bench.select", request], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        # Kill the batch when no subgraph has finished for ``timeout_s`` (a hung compile).
        last_size, last_change = _size(results), time.monotonic()
        while proc.poll() is None:
            time.sleep(0.5)
            size = _size(results)
            if size != last_size:
                last_size, last_change = size, time.monotonic()
            elif time.monotonic() - last_change > timeout_s:
                os.killpg(proc.pid, 9)
                proc.wait()
    finally:
        os.unlink(request)


# --- selection --------------------------------------------------------------------------------


def speedup(row: dict[str, Any]) -> float:
    """Inductor's speedup over eager (eager time / Inductor time) of one measured subgraph."""
    return row["eager_us"] / row["inductor_us"] if row.get("inductor_us") else float("nan")


def geomean(values: list[float]) -> float:
    """Geometric mean of positive values (nan for none)."""
    vals = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else float("nan")


def is_long_tail(task_speedup: float) -> bool:
    """True when Inductor is slower than eager, or barely faster (< :data:`LONG_TAIL_SPEEDUP`)."""
    return task_speedup < LONG_TAIL_SPEEDUP


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1]))
