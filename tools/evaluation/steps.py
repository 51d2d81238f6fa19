"""What the evaluation's processes share: building and calling a subgraph's module, seeding, the
reference call, error descriptions, step times, and a process's one-off start-up (imports, the
precompiled headers' folder). Used by the clean and candidate roles (:mod:`.`) and by
the match worker of ``passagent coverage``.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import time
from pathlib import Path
from typing import Any

import torch

from ..measure.correctness import Comparison, reference_precision
from ..tasks.graph_source import rewrite_device_literals
from ..integrity.rules import Breach
from ..tasks.loader import Subgraph
from ..measure.timing import speedup_estimates
from ..process.tracebacks import exception_chain, one_line, root_cause


def paired_speedups(samples: dict[str, list[float]]) -> dict[str, float]:
    """Speedups as the median over rounds of the per-round ratio baseline time / candidate time,
    from one interleaved measurement's end-to-end samples (µs, paired by round,
    ``time_interleaved(samples_out=...)``): the score's speedup (``shared/docs/SCORING.md``: each
    round times every variant back to back, so the ratio within a round cancels the host's drift
    that the ratio of two medians does not).

    Returns ``{"eager": s, "inductor": s}`` for the candidate against each baseline timed here,
    and ``"inductor_vs_eager"``, default Inductor's own speedup against eager (the paper's
    comparison scores Inductor like a candidate), wherever both were timed, candidate or not. A
    pair whose samples cannot be paired (another count, a time of 0) is left out: a recorded
    extra must never fail the measurement it comes from."""
    pairs = [("eager", "candidate", "eager"), ("inductor", "candidate", "inductor"), ("eager", "inductor", "inductor_vs_eager")]
    out: dict[str, float] = {}
    for base, cand, key in pairs:
        if samples.get(base) and samples.get(cand):
            try:
                out[key] = speedup_estimates(samples[base], samples[cand])["median_of_paired_ratios"]
            except ValueError:
                continue
    return out


class EventWriter:
    """Append-only JSON-lines writer; each event is flushed to the OS before returning."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def emit(self, event: str, **fields: Any) -> None:
        line = json.dumps({"event": event, "t": time.time(), **fields}, default=str) + "\n"
        os.write(self.fd, line.encode())


def build_module(sg: Subgraph, device: torch.device, tag: str) -> torch.nn.Module:
    """Execute the subgraph's ``model.py`` (device literals rewritten) and instantiate it.

    Each call defines a fresh class, so Dynamo's per-code-object caches never mix the eager,
    baseline and candidate variants.
    """
    code = rewrite_device_literals(sg.code, device.type)
    namespace: dict[str, Any] = {"__name__": f"passagent_subgraph_{tag}"}
    exec(compile(code, str(sg.path / "model.py"), "exec"), namespace)  # noqa: S102
    return namespace[sg.graph.class_name]().to(device).eval()


def reseed(seed: int) -> None:
    """Seed every generator a subgraph can draw from: what ``torch.manual_seed(seed)`` does to
    the CPU's default generator and each visible CUDA device's, without its cost per call.

    ``torch.manual_seed`` is wrapped to run outside Dynamo (``torch/_compile.py``) and walks every
    backend (CUDA's lazy queue, MPS, XPU, custom devices): on the H200 host it was the largest
    Python cost of a timed round (profiled: 1 ms of a ~3 ms round, ``benchmarks/RESULTS.md``).
    Before CUDA has started, CUDA's generators do not exist yet, and ``torch.manual_seed`` queues
    their seeding for when it starts; that case is left to it.
    """
    if torch.cuda.is_available() and not torch.cuda.is_initialized():
        torch.manual_seed(seed)
        return
    torch.default_generator.manual_seed(seed)
    if torch.cuda.is_initialized():
        for generator in torch.cuda.default_generators:
            generator.manual_seed(seed)


def _call(fn: Any, args: list[Any], seed: int) -> Any:
    reseed(seed)  # graphs that draw random numbers see the same stream each time
    with torch.no_grad():
        return fn(*args)


def _reference_call(fn: Any, args: list[Any], seed: int) -> Any:
    """An eager reference call: seeded like every call, TF32 off (SCORING.md, the correctness reference)."""
    with reference_precision():
        return _call(fn, args, seed)


def secret_seed() -> int:
    """A seed from the OS's entropy pool: nothing in the task, the request or the pass determines it."""
    return int.from_bytes(os.urandom(8), "little") & (2**62 - 1)


def _error_stats(c: Comparison) -> dict[str, Any]:
    return {"min_correct_t": c.min_correct_t, "max_abs": c.max_abs, "max_rel": c.max_rel}


def _make_cache_tag(digest: str) -> Any:
    from ..passes.backend import pass_cache_tag

    return pass_cache_tag(digest)


def phase_durations(marks: list[tuple[str, float]], end: float) -> dict[str, float]:
    """Seconds spent in each step, from ``(step, perf_counter at its start)`` marks in order.

    A step that recurs is summed; the steps after ``heldout_shape`` (the candidate's recompile
    and run on held-out shapes emit the compile steps again) count as ``heldout_shape``.
    """
    out: dict[str, float] = {}
    heldout = False
    for (name, t0), (_next, t1) in zip(marks, [*marks[1:], ("end", end)]):
        heldout = heldout or name == "heldout_shape"
        key = "heldout_shape" if heldout else name
        out[key] = round(out.get(key, 0.0) + max(0.0, t1 - t0), 4)
    return out


_SANDBOX_ERRNOS = {errno.EACCES, errno.EPERM, errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EROFS}


def sandbox_breach(exc: BaseException, pass_files: list[Path]) -> Breach | None:
    """A sandbox denial (file write outside the worker folder, network) raised from pass code."""
    for e in exception_chain(exc):
        if isinstance(e, OSError) and e.errno in _SANDBOX_ERRNOS:
            return Breach("sandbox", f"the pass tried something the worker's sandbox forbids: {one_line(e)}")
    return None


def _describe_error(exc: BaseException) -> str:
    root = root_cause(exc)
    text = one_line(root)
    if isinstance(root, MemoryError) or "can't allocate memory" in str(root) or isinstance(root, torch.OutOfMemoryError):
        text = "out of memory: " + text
    return text


def preload(device_type: str) -> None:
    """The worker's imports and one-off probes, which need neither the request nor a device:
    Inductor, Triton (imported, not started: no CUDA context), every harness module the
    candidate's steps use (loaded before the guards' snapshots, so they cover their references
    too) and, for the CPU, Inductor's SIMD probe. Seconds of start-up; idempotent, so a
    pre-started worker (:data:`.child.STANDBY_POOL`) runs it while it waits and the worker's own call is free.
    """
    from torch._inductor import compile_fx  # noqa: F401 - Inductor's import is seconds: before the lease

    persist_precompiled_headers()
    if device_type == "cpu":
        # Which SIMD instruction sets the CPU has: Inductor compiles and loads a probe of each,
        # once per process (torch/_inductor/cpu_vec_isa.py, valid_vec_isa_list), seconds of
        # subprocesses that need no lease.
        from torch._inductor.cpu_vec_isa import pick_vec_isa

        pick_vec_isa()
    elif device_type == "cuda":
        try:
            import triton  # noqa: F401 - imported, not started: no CUDA context before the lease
        except ImportError:
            pass
    from ..passes import backend, rewrite, triton_ops  # noqa: F401


def persist_precompiled_headers() -> None:
    """Keep Inductor's precompiled C++ headers in its persistent cache, not in this worker's folder.

    Inductor puts them under ``default_cache_dir()/precompiled_headers``
    (``torch/_inductor/codecache.py``, ``_HEADER_DIR``), which follows ``tempfile.gettempdir()``
    and not ``TORCHINDUCTOR_CACHE_DIR``; a worker's ``TMPDIR`` is its own fresh folder, so every
    worker rebuilt the header (7 s on a 2-core CPU) before loading even a C++ kernel that came
    from the FX graph cache. The headers are content-addressed (header, preprocessed text,
    compiler version), so sharing them across workers is as safe as sharing the kernel cache.
    A torch without these attributes is left alone.
    """
    from torch._inductor import codecache

    cache = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    if cache and hasattr(codecache, "_HEADER_DIR") and hasattr(codecache, "_HEADER_LOCK_DIR"):
        codecache._HEADER_DIR = os.path.join(cache, "precompiled_headers")
        codecache._HEADER_LOCK_DIR = os.path.join(codecache._HEADER_DIR, "locks")


def _max_rss_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
