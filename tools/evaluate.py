"""Evaluate a pass on a task: isolated worker processes, failure classification, scoring.

This is the harness's entry point (``passagent eval`` and the agent's ``evaluate_pass`` tool
both call :func:`evaluate_pass`). The pass never runs in this process: a worker is spawned
(a fresh interpreter, never a fork) in its own process group for the candidate; if it
crashes, hangs past the per-subgraph timeout or runs out of memory, the group is killed, the
subgraph in progress gets the failure class of the step it was in, and a new worker carries
on with the remaining subgraphs.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from .baseline_cache import BaselineCache, default_cache_root
from .correctness import HEADLINE_LEVEL
from .errors import DeviceUnavailableError, TaskError
from .passes import pass_digest, pass_files
from .schema import EvalConfig, EvalResult, ErrorStats, RuleResult, SubgraphResult, TaskScores, Timing
from .sandbox import isolate_network_command, scrubbed_environment
from .scoring import Outcome, ScoringConfig, summarize
from .static_checks import Mode, check_pass
from .tasks import Task
from .timing import TimingConfig

#: Worker steps in which a crash or hang is the pass's or the compiler's fault before anything ran.
_COMPILE_PHASES = {"candidate_load", "candidate_rewrite", "candidate_inductor"}
_RUN_PHASES = {"candidate_compiled", "candidate_run", "correctness", "timing"}


@dataclass
class EvalOptions:
    """Options of one evaluation (CLI flags of ``passagent eval`` map onto these).

    Attributes:
        device: ``"cpu"`` or ``"cuda"`` (``"cuda:N"`` for a given GPU).
        baseline: what speedups are scored against: ``"eager"`` (default) or ``"inductor"``.
        draws: fresh input draws checked for correctness (>= 3 per the protocol).
        seed: seed of draw 0 (draw k uses seed + k).
        degenerate_std: std drawn for multi-element float inputs recorded with std 0.
        scoring: slowdown penalty p and failure penalty b.
        timeout_s: wall-clock limit per subgraph inside the worker (seconds).
        timing: call counts and time budget of the timing.
        cache_root: where baseline measurements and Inductor's caches live.
        use_cache: False remeasures baselines (and still stores nothing).
        memory_limit_bytes: address-space limit of a CPU worker; None: 75% of physical RAM.
        integrity_mode: ``"permissive"`` (default) or ``"strict"`` (PassNet's: replacements may
            call only tensor factories and Triton); see :mod:`.static_checks`.
        static_checks: run the static checks before any pass code runs (off only to study
            the runtime defenses behind them).
        sandbox: confine the worker (resource limits, writes only to its folder and the
            compiler cache, no network) where the OS allows.
        heldout_shapes: also check correctness on a shape no timed call used.
        device_pool: lease one of these devices per evaluation (sweeps); overrides ``device``.
        lock_dir: the lock folder shared by every process using ``device_pool``.
    """

    device: str = "cpu"
    baseline: str = "eager"
    draws: int = 3
    seed: int = 0
    degenerate_std: float = 1.0
    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    timeout_s: float = 300.0
    timing: TimingConfig = field(default_factory=TimingConfig)
    cache_root: Path | None = None
    use_cache: bool = True
    memory_limit_bytes: int | None = None
    integrity_mode: str = "permissive"
    static_checks: bool = True
    sandbox: bool = True
    heldout_shapes: bool = True
    device_pool: list[str] | None = None
    lock_dir: Path | None = None

    def __post_init__(self) -> None:
        if self.integrity_mode not in ("permissive", "strict"):
            raise ValueError(f"integrity mode must be 'permissive' or 'strict', not {self.integrity_mode!r}")
        if self.baseline not in ("eager", "inductor"):
            raise ValueError(f"baseline must be 'eager' or 'inductor', not {self.baseline!r}")
        if self.draws < 1:
            raise ValueError("draws must be >= 1")


def device_name(device: str) -> str:
    """A human-readable name of the device (``NVIDIA H200``, or the CPU model)."""
    if device.startswith("cuda"):
        return torch.cuda.get_device_name(torch.device(device))
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} cores)"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()} ({os.cpu_count()} cores)"


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 16 * 2**30


def worker_environment(cache_root: Path, workdir: Path) -> dict[str, str]:
    """The worker's environment: ours minus credentials; caches and temporary files where the
    sandbox lets it write (Inductor's cache under ``cache_root``, the rest in ``workdir``)."""
    env = scrubbed_environment(dict(os.environ))
    inductor = Path(env.setdefault("TORCHINDUCTOR_CACHE_DIR", str(cache_root / "inductor")))
    env.setdefault("TRITON_CACHE_DIR", str(inductor / "triton"))
    env["CUDA_CACHE_PATH"] = str(inductor / "cuda")
    env["TMPDIR"] = str(workdir)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONFAULTHANDLER"] = "1"  # a segfault prints the Python stack, with pass-file lines
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@dataclass
class _WorkerRun:
    results: dict[int, dict[str, Any]]
    task_errors: dict[int, dict[str, Any]]
    failed: dict[int, tuple[str, str, str | None]]  # index -> (class, message, log tail)
    max_rss_kb: int = 0
    sandbox: list[str] = field(default_factory=list)


def _read_events(path: Path, offset: int) -> tuple[list[dict[str, Any]], int]:
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    events, consumed = [], 0
    for line in data.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break  # partial line: read it next time
        consumed += len(line)
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return events, offset + consumed


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"signal {-returncode}"
    return f"exit code {returncode}"


def _crash_report(path: Path, pass_paths: list[str], lines: int = 15) -> str | None:
    """What the dead worker left in its log: faulthandler's Python stack if it printed one
    (the frames in the pass's files first), else the last lines of output."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return None
    if any(ln.startswith("Fatal Python error") for ln in text):
        start = max(i for i, ln in enumerate(text) if ln.startswith("Fatal Python error"))
        block = text[start:]
        header = block[0]
        frames = [ln.strip() for ln in block if ln.strip().startswith('File "')]
        mine = [f for f in frames if any(p in f for p in pass_paths)]
        shown = mine + [f for f in frames if f not in mine][: max(0, 6 - len(mine))]
        return "\n".join([header, "most recent call first:", *shown])
    keep = [ln for ln in text if ln.strip()][-lines:]
    return "\n".join(keep) or None


def _run_workers(request: dict[str, Any], indices: list[int], workdir: Path, timeout_s: float, env: dict[str, str],
                 isolate_network: bool = False) -> _WorkerRun:
    run = _WorkerRun({}, {}, {})
    remaining = list(indices)
    attempt = 0
    while remaining:
        attempt += 1
        events_path = workdir / f"events-{attempt}.jsonl"
        log_path = workdir / f"worker-{attempt}.log"
        req_path = workdir / f"request-{attempt}.json"
        req_path.write_text(json.dumps({**request, "subgraph_indices": remaining, "events_path": str(events_path)}))
        argv = [sys.executable, "-m", "passagent.tools.worker_entry", str(req_path)]
        if isolate_network:
            argv, _description = isolate_network_command(argv)
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                argv,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=workdir,
                env=env,
                start_new_session=True,  # its own process group: we can kill all it spawned
            )
        offset, current, phase, started = 0, None, None, time.monotonic()
        timed_out = False
        while True:
            events, offset = _read_events(events_path, offset)
            for ev in events:
                kind = ev.get("event")
                if kind == "start":
                    current, phase, started = ev["subgraph"], "start", time.monotonic()
                elif kind == "phase":
                    phase = ev["phase"]
                elif kind == "result":
                    run.results[ev["subgraph"]] = ev
                    current = None
                elif kind == "task_error":
                    run.task_errors[ev["subgraph"]] = ev
                    current = None
                elif kind == "sandbox":
                    run.sandbox = ev.get("applied", [])
                elif kind == "done":
                    run.max_rss_kb = max(run.max_rss_kb, int(ev.get("max_rss_kb", 0)))
                    # Everything is reported: end the group now rather than wait for the
                    # interpreter's teardown (and Inductor's compile-worker pool) to finish.
                    _kill_group(proc)
            if proc.poll() is not None:
                events, offset = _read_events(events_path, offset)
                for ev in events:
                    if ev.get("event") == "result":
                        run.results[ev["subgraph"]] = ev
                        current = None
                    elif ev.get("event") == "task_error":
                        run.task_errors[ev["subgraph"]] = ev
                        current = None
                    elif ev.get("event") == "done":
                        run.max_rss_kb = max(run.max_rss_kb, int(ev.get("max_rss_kb", 0)))
                break
            if current is not None and time.monotonic() - started > timeout_s:
                timed_out = True
                _kill_group(proc)
                break
            time.sleep(0.05)
        done = set(run.results) | set(run.task_errors)
        remaining = [i for i in remaining if i not in done]
        if not remaining:
            break
        victim = current if current is not None else remaining[0]
        tail = _crash_report(log_path, request["pass_files"])
        if timed_out:
            cls = "timeout"
            msg = f"exceeded the {timeout_s:.0f} s limit per subgraph during step '{phase}'; the worker was killed"
        else:
            how = _describe_exit(proc.returncode)
            if phase in _COMPILE_PHASES:
                cls, msg = "compile", f"the worker died ({how}) while {phase.replace('_', ' ')}"
            elif proc.returncode == -signal.SIGKILL:
                cls, msg = "runtime", f"the worker was killed ({how}), most likely out of memory, during step '{phase}'"
            else:
                cls, msg = "runtime", f"the worker died ({how}) during step '{phase}'"
        run.failed[victim] = (cls, msg, tail)
        remaining.remove(victim)
    return run


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def evaluate_pass(task: Task, pass_path: str | Path, options: EvalOptions | None = None) -> EvalResult:
    """Evaluate ``pass_path`` on every subgraph of ``task`` (see :func:`_evaluate`).

    With ``options.device_pool`` the evaluation first leases one free device of the pool, so at
    most one evaluation runs on each device at a time across all processes sharing ``lock_dir``.
    """
    options = options or EvalOptions()
    if options.device_pool:
        from .device_lease import lease_device

        lock_dir = Path(options.lock_dir or (Path(options.cache_root or default_cache_root()) / "locks"))
        with lease_device(options.device_pool, lock_dir) as device:
            return _evaluate(task, pass_path, dataclasses.replace(options, device=device, device_pool=None))
    return _evaluate(task, pass_path, options)


def _evaluate(task: Task, pass_path: str | Path, options: EvalOptions) -> EvalResult:
    """Evaluate ``pass_path`` on every subgraph of ``task``.

    Args:
        task: the loaded task.
        pass_path: a pass file or a PassNet ``pass_dir/``.
        options: evaluation options (defaults: CPU, eager baseline, 3 draws).

    Returns:
        The :class:`EvalResult` (per-subgraph status, failure class, matches, errors, times
        in microseconds, speedups; ES(t), S_t and AS against the chosen baseline and, where
        both were timed, the other one).

    Raises:
        PassLoadError: the pass path does not exist or its rule list is malformed.
        TaskError: the task's own eager reference fails (the task is broken, not the pass).
        DeviceUnavailableError: CUDA was requested but is not available.
    """
    if options.device.startswith("cuda") and not torch.cuda.is_available():
        raise DeviceUnavailableError("--device cuda: no CUDA device is available on this machine")
    t0 = time.perf_counter()
    pass_path = Path(pass_path).resolve()
    pass_files(pass_path)  # raises PassLoadError early, before any process is started
    digest = pass_digest(pass_path)
    cache_root = Path(options.cache_root or default_cache_root())
    cache = BaselineCache(cache_root, enabled=options.use_cache)
    dev_name = device_name(options.device)
    settings = {"draws": options.draws, "seed": options.seed, "degenerate_std": options.degenerate_std}
    keys = {i: cache.key(sg.digest, dev_name, torch.__version__, settings) for i, sg in enumerate(task.subgraphs)}
    cached = {i: cache.get(k) for i, k in keys.items()}
    need_inductor = {str(i): options.baseline == "inductor" or cached[i] is None for i in keys}
    if options.static_checks:
        violations = check_pass(pass_path, Mode(options.integrity_mode))
        if violations:
            return _statically_rejected(task, pass_path, digest, options, dev_name, violations, cache, keys, t0)
    mem = options.memory_limit_bytes if options.memory_limit_bytes is not None else int(0.75 * _physical_memory())
    request = {
        "task_path": str(task.path),
        "task_id": task.id,
        "pass_path": str(pass_path),
        "pass_digest": digest,
        "pass_files": [str(f) for _n, f in pass_files(pass_path)],
        "device": options.device,
        "draws": options.draws,
        "seed": options.seed,
        "degenerate_std": options.degenerate_std,
        "timing": asdict(options.timing),
        "need_inductor": need_inductor,
        "heldout_shapes": options.heldout_shapes,
    }
    with tempfile.TemporaryDirectory(prefix="passagent-eval-") as tmp:
        workdir = Path(tmp)
        env = worker_environment(cache_root, workdir)
        if options.sandbox:
            inductor_dir = Path(env["TORCHINDUCTOR_CACHE_DIR"])
            inductor_dir.mkdir(parents=True, exist_ok=True)
            Path(env["TRITON_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
            request["sandbox"] = {
                # CUDA reserves far more address space than it uses: no RLIMIT_AS there.
                "address_space_bytes": mem if options.device == "cpu" else None,
                "cpu_seconds": int(options.timeout_s * (len(keys) + 1) * (os.cpu_count() or 1)),
                "open_files": 4096,
                "file_size_bytes": 4 * 2**30,
                "writable_dirs": [str(workdir), str(inductor_dir), env["TRITON_CACHE_DIR"]],
                "network": isolate_network_command(["true"])[1],
            }
        run = _run_workers(request, list(keys), workdir, options.timeout_s, env, isolate_network=options.sandbox)
    if run.task_errors:
        i, ev = sorted(run.task_errors.items())[0]
        raise TaskError(task.subgraphs[i].path / "model.py", ev["message"])

    subgraphs: list[SubgraphResult] = []
    for i, sg in enumerate(task.subgraphs):
        if i in run.results:
            res = _subgraph_from_event(i, sg, run.results[i], cached[i], options)
            if need_inductor[str(i)] and "eager" in res.times:
                cache.put(keys[i], _cache_entry(run.results[i]))
        else:
            cls, msg, tail = run.failed[i]
            res = SubgraphResult(
                index=i, name=sg.name, source=sg.source, dtypes=list(sg.dtypes), status=cls,  # type: ignore[arg-type]
                failure_class=cls, message=msg, traceback=tail,  # type: ignore[arg-type]
            )
        subgraphs.append(res)

    scores = _task_scores(subgraphs, options.baseline, options.scoring)
    other = "inductor" if options.baseline == "eager" else "eager"
    other_scores = _task_scores(subgraphs, other, options.scoring) if _has_times(subgraphs, other) else None
    warnings = []
    low = [s.name for s in subgraphs if s.low_signal]
    if low:
        warnings.append(f"low-signal subgraphs (reference outputs identical across input draws): {', '.join(low)}")
    return EvalResult(
        task_id=task.id,
        task_path=str(task.path),
        pass_path=str(pass_path),
        pass_sha256=digest,
        config=_eval_config(options),
        torch_version=torch.__version__,
        device_name=dev_name,
        subgraphs=subgraphs,
        scores=scores,
        other_scores=other_scores,
        wall_s=time.perf_counter() - t0,
        warnings=warnings,
        worker_peak_rss_mb=run.max_rss_kb / 1024 if run.max_rss_kb else None,
        sandbox=run.sandbox,
    )


def _statically_rejected(task: Task, pass_path: Path, digest: str, options: EvalOptions, dev_name: str,
                         violations: list[Any], cache: BaselineCache, keys: dict[int, str], t0: float) -> EvalResult:
    """The result for a pass the static checks refused: nothing ran; every subgraph is an
    ``integrity`` failure naming the first rule, and the message lists each violation."""
    listing = "\n".join(f"{Path(v.path).name}:{v.line} [{v.rule}] {v.message}" for v in violations[:12])
    more = f"\n... and {len(violations) - 12} more" if len(violations) > 12 else ""
    message = (f"integrity rule '{violations[0].rule}': the pass was refused before running "
               f"({len(violations)} static check violation(s)):\n{listing}{more}")
    subgraphs = [
        SubgraphResult(index=i, name=sg.name, source=sg.source, dtypes=list(sg.dtypes), status="integrity",
                       failure_class="integrity", integrity_rule=violations[0].rule, message=message)
        for i, sg in enumerate(task.subgraphs)
    ]
    return EvalResult(
        task_id=task.id, task_path=str(task.path), pass_path=str(pass_path), pass_sha256=digest,
        config=_eval_config(options), torch_version=torch.__version__, device_name=dev_name, subgraphs=subgraphs,
        scores=_task_scores(subgraphs, options.baseline, options.scoring), wall_s=time.perf_counter() - t0,
    )


def _eval_config(options: EvalOptions) -> EvalConfig:
    return EvalConfig(
        device=options.device, baseline=options.baseline, draws=options.draws, seed=options.seed,  # type: ignore[arg-type]
        degenerate_std=options.degenerate_std, slowdown_penalty=options.scoring.slowdown_penalty,
        failure_penalty=options.scoring.failure_penalty, timeout_s=options.timeout_s,
        timing_budget_s=options.timing.budget_s, integrity_mode=options.integrity_mode,  # type: ignore[arg-type]
        static_checks=options.static_checks, sandbox=options.sandbox,
    )


def _cache_entry(ev: dict[str, Any]) -> dict[str, Any]:
    times = ev.get("times", {})
    entry: dict[str, Any] = {"eager_us": times.get("eager", {}).get("median_us")}
    if "inductor" in times:
        entry["inductor_us"] = times["inductor"]["median_us"]
        entry["inductor_ratio"] = times["inductor"]["median_us"] / times["eager"]["median_us"]
    entry["inductor_error"] = ev.get("inductor_error")
    entry["inductor_failure"] = ev.get("inductor_failure")
    return entry


def _timing(d: dict[str, Any], source: str = "measured") -> Timing:
    return Timing(
        median_us=d["median_us"], q1_us=d["q1_us"], q3_us=d["q3_us"], n=d["n"],
        kernel_median_us=d.get("kernel_median_us"), source=source,  # type: ignore[arg-type]
    )


def _subgraph_from_event(i: int, sg: Any, ev: dict[str, Any], cached: dict[str, Any] | None, options: EvalOptions) -> SubgraphResult:
    times = {name: _timing(t) for name, t in ev.get("times", {}).items()}
    inductor_error = ev.get("inductor_error")
    if "inductor" not in times and cached and cached.get("inductor_ratio") and "eager" in times:
        eager = times["eager"]
        r = cached["inductor_ratio"]
        times["inductor"] = Timing(
            median_us=eager.median_us * r, q1_us=eager.q1_us * r, q3_us=eager.q3_us * r, n=0, source="cached"
        )
    if inductor_error is None and cached:
        inductor_error = cached.get("inductor_error")
    cand_err = ev.get("candidate_error")
    failure = ev.get("failure_class")
    hard_failure = failure is not None and failure != "accuracy"
    correct_t = None if hard_failure or cand_err is None else cand_err["min_correct_t"]
    status = "correct" if correct_t is not None and correct_t <= HEADLINE_LEVEL else (failure or "accuracy")
    message = ev.get("message")
    if status == "accuracy" and message and inductor_error is not None:
        # So a pass is never blamed for the compiler's own error: say where Inductor stands.
        ind_t = inductor_error["min_correct_t"]
        message += f"; default Inductor itself is correct {'from t=%d' % ind_t if ind_t is not None else 'at no level'}"
    speedup = {}
    if "candidate" in times:
        for base in ("eager", "inductor"):
            if base in times:
                speedup[base] = times[base].median_us / times["candidate"].median_us
    return SubgraphResult(
        index=i,
        name=sg.name,
        source=sg.source,
        dtypes=list(sg.dtypes),
        status=status,  # type: ignore[arg-type]
        failure_class=failure,
        message=message,
        integrity_rule=ev.get("integrity_rule"),
        traceback=ev.get("traceback"),
        matches=ev.get("matches", 0),
        rules=[RuleResult(**r) for r in ev.get("rules", [])],
        candidate_error=ErrorStats(**cand_err) if cand_err else None,
        inductor_error=ErrorStats(**inductor_error) if inductor_error else None,
        low_signal=ev.get("low_signal", False),
        degenerate_inputs=ev.get("degenerate_inputs", []),
        times=times,
        speedup_vs_eager=speedup.get("eager"),
        speedup_vs_inductor=speedup.get("inductor"),
        wall_s=ev.get("wall_s", 0.0),
    )


def _has_times(subgraphs: list[SubgraphResult], baseline: str) -> bool:
    return all(baseline in s.times for s in subgraphs if "candidate" in s.times)


def _outcome(s: SubgraphResult, baseline: str) -> Outcome:
    speedup = s.speedup_vs_eager if baseline == "eager" else s.speedup_vs_inductor
    hard = s.failure_class not in (None, "accuracy")
    min_t = None if hard or s.candidate_error is None else s.candidate_error.min_correct_t
    return Outcome(speedup=speedup, min_correct_t=min_t if speedup is not None else None, failure_class=s.failure_class or "accuracy")


def _task_scores(subgraphs: list[SubgraphResult], baseline: str, cfg: ScoringConfig) -> TaskScores:
    summary = summarize([_outcome(s, baseline) for s in subgraphs], cfg)
    return TaskScores(
        baseline=baseline,  # type: ignore[arg-type]
        es=summary.es,
        s=summary.s,
        aggregated=summary.aggregated,
        correct_at_minus5=summary.correct_at_headline,
        geomean_speedup_correct=summary.geomean_speedup_correct,
        fast_1=summary.fast_1,
    )
