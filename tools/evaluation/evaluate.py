"""Evaluate a pass on a task: the clean-room referee, failure classification, scoring.

This is the harness's entry point (``passagent eval`` and the agent's ``evaluate_pass`` tool
both call :func:`evaluate_pass`). The pass never runs in this process, nor in any process that
computes a reference, a baseline or a comparison: :mod:`.referee` starts a candidate
process for the pass and clean processes for the rest, and reads time and work from outside
(``docs/evaluation.md``). If the candidate crashes, hangs past the per-subgraph timeout or runs
out of memory, its process group is killed, the subgraph in progress gets the failure class of
the step it was in, and a new candidate process carries on with the remaining subgraphs.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from .baseline_cache import BaselineCache, default_cache_root
from ..process.device_lease import lease_device, leased_device, pin_worker_device
from ..errors import DeviceUnavailableError, TaskError
from .child import Launch, role_environment, role_sandbox, seed_candidate_cache
from .referee import Plan, Referee
from ..process.lease_gate import LEASE_SCOPES, LeaseGate, pinned_at_spawn
from ..passes.rules import pass_digest, pass_files, source_files, source_load_error
from .results import cache_entry, has_times, inductor_task_scores, subgraph_from_event, task_scores
from ..process.sandbox import isolate_network_command
from .schema import TIME_STATISTICS, EvalConfig, EvalResult, SubgraphResult
from ..measure.scoring import ScoringConfig
from ..integrity.static_checks import Mode, check_pass
from ..tasks.loader import Task
from ..measure.timing import TimingConfig

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
        timeout_s: wall-clock limit per subgraph and step of a child process (seconds).
        timing: call counts and time budget of the timing (None: :meth:`TimingConfig.for_device`
            of the device the evaluation runs on, with ``timing_budget_s``).
        timing_budget_s: seconds of timed calls per subgraph for the device's default timing
            (``TimingConfig.for_device(device, timing_budget_s)``; None: that default's, 0.5 s on
            the CPU, at most 0.75 s on CUDA). Used where ``timing`` is None: a sweep sets it before
            it knows which device of its pool an evaluation leases, and the CUDA default (the
            confidence-interval rule, CUDA-graph replays) must not turn into the CPU's.
        cache_root: where baseline measurements and Inductor's caches live.
        use_cache: False remeasures baselines (and still stores nothing).
        memory_limit_bytes: address-space limit of a CPU evaluation's candidate process; None:
            75% of physical RAM.
        integrity_mode: ``"permissive"`` (default) or ``"strict"`` (PassNet's: replacements may
            call only tensor factories and Triton); see :mod:`..integrity.static_checks`.
        static_checks: run the static checks before any pass code runs (off only to study
            the runtime defenses behind them).
        sandbox: confine the candidate process (resource limits, writes only to its folder and
            its compiler cache, no network, its own PID namespace) where the OS allows; the clean
            processes get the same limits on writes. See ``docs/evaluation.md``.
        heldout_shapes: also check correctness on a held-out shape, grown from the task's by a
            secret factor that only the clean process knows when the candidate compiles.
        cpu_threads: threads for CPU evaluations (torch and OpenMP), default 1. OpenMP's
            spin-waiting barriers make multi-threaded timings meaningless on a shared or loaded
            machine (seen here: an 8x eager slowdown while the candidate's single-threaded
            kernel was unaffected), so CPU timings are single-threaded unless asked otherwise.
            None keeps torch's default.
        gpu_host_threads: CPU threads (torch intra-op, OpenMP) of a CUDA evaluation's processes.
            None: the machine's cores divided by the size of ``device_pool`` (all cores without a
            pool), so evaluations running at once on several GPUs never ask for more threads
            than there are cores (spinning OpenMP threads of one process would otherwise slow the
            others'; the same reason torchrun gives each of its processes one thread).
        device_pool: lease one of these devices per evaluation (sweeps); overrides ``device``.
        lock_dir: the lock folder shared by every process using ``device_pool``.
        profile: after correctness and timing, profile default Inductor and the candidate on
            each subgraph with torch.profiler and record their kernel tables
            (``SubgraphResult.profile``). Off unless asked (``--profile``): on a GPU it costs a
            compile of the baseline per evaluation; the agent's ``profile_pass`` tool asks for
            it on demand. Inductor's C++ kernels are compiled with a profiler record each (see
            :mod:`..measure.profiling`).
        profile_calls: calls of each variant profiled per subgraph.
        time_statistic: how the scored speedups are estimated from the interleaved samples:
            ``"paired"`` (default, ``shared/docs/SCORING.md``: the median over rounds of the
            per-round ratio), ``"median"`` (ratio of medians) or ``"p10"`` (ratio of 10th
            percentiles); see :data:`.schema.TIME_STATISTICS`. The paired ratios, the ratios of
            medians and every variant's 10th percentile are recorded in every result.
        lease_scope: what a pooled evaluation's device lease covers (:mod:`..process.lease_gate`):
            ``"device"`` (default) the device steps alone (the processes start, import, load the
            task and the pass and compile first, then wait for the lease), or ``"evaluation"`` the
            whole evaluation, process start and imports included (kept to measure the
            difference). Pools that mix device kinds always lease the whole evaluation (the
            processes' device type must be known when they start).
        reuse_inductor_time: with the default eager baseline, take default Inductor's time from
            the baseline cache (rescaled by this run's eager time) instead of compiling and timing
            it again. Off by default: the candidate's own time depends on which variants are
            interleaved with it (on a 22 µs CPU subgraph: 27-29 µs timed beside eager and
            Inductor, 31-32 µs beside eager alone, every call checked alike), so an evaluation
            that skipped Inductor would time the candidate differently from one that did not.
        standby: after this evaluation, start a candidate process for the next one with the
            same launch settings (``STANDBY_POOL`` in :mod:`.child`: a confined
            interpreter that has done its imports and holds no pass), and use such a process now
            if one is ready or starting. For loops that evaluate again and again (the agent,
            sweeps); off for a single evaluation. Clean processes are kept between evaluations of
            the same task regardless (``CLEAN_POOL``).
        compile_before_lease: compile default Inductor and the candidate of every subgraph (and
            the held-out shapes) before the evaluation takes the device lease, and run them only
            under it: the lease then covers the first runs (with Inductor's first-run
            autotuning), correctness and timing. None (default): on for a CUDA evaluation, off on
            the CPU, where the compiles would take the cores the lease is for. Only where the
            processes' device is fixed when they are spawned (no pool, or a pool of one device):
            in a pool of several GPUs the device is known with the lease, and CUDA may not start
            before that, so they compile under the lease.
        candidate_cache_scope: which candidates share a compiler cache (Inductor's and Triton's,
            under ``<cache_root>/candidates/<scope>``): candidates of one scope may read what
            another compiled, and a pass can write there, so passes that must not influence each
            other (different models of a leaderboard) get different scopes. The references and
            baselines use ``<cache_root>/inductor``, which no candidate can write. Default
            ``"shared"``.
        lease_purpose: the ``purpose`` a pooled evaluation's lease record names; None (default)
            for an evaluation of a new version, ``"confirmation"`` for the confirmation's
            re-evaluation of a version already evaluated (``agent/run/confirm.py``), so that a lease
            log tells versions from re-timings.
    """

    device: str = "cpu"
    baseline: str = "eager"
    draws: int = 3
    seed: int = 0
    degenerate_std: float = 1.0
    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    timeout_s: float = 300.0
    timing: TimingConfig | None = None
    timing_budget_s: float | None = None
    cache_root: Path | None = None
    use_cache: bool = True
    memory_limit_bytes: int | None = None
    integrity_mode: str = "permissive"
    static_checks: bool = True
    sandbox: bool = True
    heldout_shapes: bool = True
    cpu_threads: int | None = 1
    gpu_host_threads: int | None = None
    device_pool: list[str] | None = None
    lock_dir: Path | None = None
    profile: bool = False
    profile_calls: int = 5
    reuse_inductor_time: bool = False
    time_statistic: str = "paired"
    lease_scope: str = "device"
    standby: bool = False
    compile_before_lease: bool | None = None
    lease_purpose: str | None = None
    candidate_cache_scope: str = "shared"

    def __post_init__(self) -> None:
        if self.integrity_mode not in ("permissive", "strict"):
            raise ValueError(f"integrity mode must be 'permissive' or 'strict', not {self.integrity_mode!r}")
        if self.baseline not in ("eager", "inductor"):
            raise ValueError(f"baseline must be 'eager' or 'inductor', not {self.baseline!r}")
        if self.time_statistic not in TIME_STATISTICS:
            raise ValueError(f"time statistic must be one of {', '.join(TIME_STATISTICS)}, not {self.time_statistic!r}")
        if self.lease_scope not in LEASE_SCOPES:
            raise ValueError(f"lease scope must be one of {', '.join(LEASE_SCOPES)}, not {self.lease_scope!r}")
        if self.draws < 1:
            raise ValueError("draws must be >= 1")
        if self.timing_budget_s is not None and not self.timing_budget_s > 0:
            raise ValueError(f"timing budget must be > 0 seconds, not {self.timing_budget_s!r}")
        if self.profile_calls < 1:
            raise ValueError("profile_calls must be >= 1")
        if self.cpu_threads is not None and self.cpu_threads < 1:
            raise ValueError(f"cpu_threads must be >= 1 or None (torch's default), not {self.cpu_threads!r}")

    def timing_config(self) -> TimingConfig:
        """The timing this evaluation uses on ``self.device``: ``timing`` if given, else
        ``TimingConfig.for_device(device, timing_budget_s)``."""
        return self.timing or TimingConfig.for_device(self.device, self.timing_budget_s)


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


def baseline_key(cache: BaselineCache, subgraph_digest: str, dev_name: str, options: EvalOptions) -> str:
    """The baseline-cache key of a subgraph under these options (what changes its baselines)."""
    settings = {"draws": options.draws, "seed": options.seed, "degenerate_std": options.degenerate_std,
                "cpu_threads": options.cpu_threads if options.device == "cpu" else None}
    return cache.key(subgraph_digest, dev_name, torch.__version__, settings)


def worker_threads(options: EvalOptions) -> int | None:
    """The CPU threads an evaluation's processes are given: ``cpu_threads`` on the CPU, ``gpu_host_threads`` (or
    all cores) on CUDA; None leaves torch's default (only for ``cpu_threads=None`` on the CPU)."""
    if options.device == "cpu":
        return options.cpu_threads
    return options.gpu_host_threads or (os.cpu_count() or 1)


def worker_environment(cache_root: Path, workdir: Path, threads: int | None = None, scope: str = "shared") -> dict[str, str]:
    """The environment of a process that runs a pass outside an evaluation (``passagent check``,
    coverage's match workers): the candidate role's
    (:func:`.child.role_environment`): ours minus credentials, temporary files in
    ``workdir``, and the compiler caches of candidate scope ``scope``
    (``cache_root/candidates/<scope>/inductor``), never ``cache_root/inductor``, which holds what
    the clean processes compiled for references and baselines and which no process that runs pass
    code may write (``shared/docs/DESIGN.md``, process roles).

    ``TORCHINDUCTOR_CACHE_DIR`` is always set, never inherited: Inductor writes its own default
    into ``os.environ`` the first time it compiles in a process
    (``torch/_inductor/runtime/cache_dir_utils.py``, ``cache_dir()``), so after any in-process
    compile an inherited value would send every process to that shared default instead.

    ``threads``: the CPU thread pools' size, as :func:`.child.thread_environment` sets
    them for the evaluation's processes (None: the libraries' defaults)."""
    from .child import role_environment

    return role_environment("candidate", cache_root, workdir, scope, threads)


def worker_sandbox(options: EvalOptions, env: dict[str, str], workdir: Path, n_subgraphs: int,
                   memory_bytes: int) -> dict[str, Any]:
    """The ``sandbox`` entry of a worker request: resource limits (address space in bytes on the
    CPU, CPU seconds), writes confined to ``workdir`` and the compiler caches, no network.
    Creates the cache folders it names."""
    inductor_dir = Path(env["TORCHINDUCTOR_CACHE_DIR"])
    inductor_dir.mkdir(parents=True, exist_ok=True)
    Path(env["TRITON_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
    return {
        # CUDA reserves far more address space than it uses: no RLIMIT_AS there.
        "address_space_bytes": memory_bytes if options.device == "cpu" else None,
        "cpu_seconds": int(options.timeout_s * (n_subgraphs + 1) * (os.cpu_count() or 1)),
        "open_files": 4096,
        "file_size_bytes": 4 * 2**30,
        "writable_dirs": [str(workdir), str(inductor_dir), env["TRITON_CACHE_DIR"]],
        "network": isolate_network_command(["true"])[1],
    }


def evaluate_pass(task: Task, pass_path: str | Path, options: EvalOptions | None = None) -> EvalResult:
    """Evaluate ``pass_path`` on every subgraph of ``task`` (see :func:`_evaluate`).

    With ``options.device_pool`` the evaluation first leases one free device of the pool, so at
    most one evaluation runs on each device at a time across all processes sharing ``lock_dir``;
    each lease is logged there (``leases.jsonl``: device, times, task, pass digest). A process
    evaluating on ``cuda:N`` sees that GPU alone (:func:`..process.device_lease.pin_worker_device`).
    """
    options = options or EvalOptions()
    if options.device_pool:
        lock_dir = Path(options.lock_dir or (Path(options.cache_root or default_cache_root()) / "locks"))
        info: dict[str, Any] = {"task": task.id, "pass_path": str(pass_path)}  # for the lease log
        if options.lease_purpose:
            info["purpose"] = options.lease_purpose
        try:
            info["pass_sha256"] = pass_digest(Path(pass_path).resolve())
        except Exception:  # noqa: BLE001 - a pass that does not load is reported by the evaluation itself
            pass
        threads = options.gpu_host_threads or max(1, (os.cpu_count() or 1) // len(options.device_pool))
        kinds = {leased_device(d).split(":")[0] for d in options.device_pool}
        if options.lease_scope == "device" and len(kinds) == 1:
            # The processes start before the device is known: it gets the pool's kind (and its only
            # device, if it has one) now and the leased device with the go line.
            gate = LeaseGate(options.device_pool, lock_dir, info)
            spawn_device = leased_device(pinned_at_spawn(options.device_pool) or options.device_pool[0])
            return _evaluate(task, pass_path, dataclasses.replace(options, device=spawn_device, device_pool=None,
                                                                  gpu_host_threads=threads), gate=gate)
        info["lease_scope"] = "evaluation"
        with lease_device(options.device_pool, lock_dir, info=info) as device:
            result = _evaluate(task, pass_path, dataclasses.replace(options, device=leased_device(device), device_pool=None,
                                                                    gpu_host_threads=threads))
            info["in_lease_s"] = _phase_totals(result)  # the record is written on release, with these
            return result
    return _evaluate(task, pass_path, options)


def _phase_totals(result: EvalResult) -> dict[str, float]:
    """Seconds per evaluation step summed over the result's subgraphs (``SubgraphResult.phase_s``)."""
    totals: dict[str, float] = {}
    for sg in result.subgraphs:
        for name, seconds in (sg.phase_s or {}).items():
            totals[name] = round(totals.get(name, 0.0) + seconds, 4)
    return totals


def _evaluate(task: Task, pass_path: str | Path, options: EvalOptions, gate: LeaseGate | None = None) -> EvalResult:
    """Evaluate ``pass_path`` on every subgraph of ``task``.

    Args:
        task: the loaded task.
        pass_path: a pass file or a PassNet ``pass_dir/``.
        options: evaluation options (defaults: CPU, eager baseline, 3 draws).
        gate: the device lease, taken once the processes are ready (:mod:`..process.lease_gate`); None:
            the caller holds any lease it needs.

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
    keys = {i: baseline_key(cache, sg.digest, dev_name, options) for i, sg in enumerate(task.subgraphs)}
    cached = {i: cache.get(k) for i, k in keys.items()}
    need_inductor = {str(i): options.baseline == "inductor" or not options.reuse_inductor_time or cached[i] is None
                     for i in keys}
    # A pass that cannot load fails at once, before any baseline is compiled or timed; syntax and
    # missing functions are read from the source here (nothing of the pass runs in this process),
    # an exception at import is found by the candidate process before any baseline is built.
    load_error = source_load_error(pass_path)
    if load_error is not None:
        return _failed_to_load(task, pass_path, digest, options, dev_name, load_error, t0)
    if options.static_checks:
        violations = check_pass(pass_path, Mode(options.integrity_mode))
        if violations:
            return _statically_rejected(task, pass_path, digest, options, dev_name, violations, cache, keys, t0)
    mem = options.memory_limit_bytes if options.memory_limit_bytes is not None else int(0.75 * _physical_memory())
    threads = worker_threads(options)
    device = options.device
    if gate is not None and pinned_at_spawn(gate.pool) is None:
        # A pool of several GPUs: the lease names the GPU, and the processes are started on it.
        gate.acquire()
        device = leased_device(gate.device)  # type: ignore[arg-type]

    def make_launch(role: str, workdir: Path) -> Launch:
        env = role_environment(role, cache_root, workdir, options.candidate_cache_scope, threads)
        child_device = pin_worker_device(device, env) if device.startswith("cuda") else "cpu"
        box = role_sandbox(env, workdir, address_space_bytes=mem if child_device == "cpu" else None,
                           cpu_seconds=None) if options.sandbox else None
        return Launch(role=role, device=child_device, env=env, sandbox=box, cpu_threads=threads,
                      extra={"profile": True} if options.profile else {})

    plan = Plan(
        task=task, pass_path=pass_path, digest=digest, pass_files=[str(f) for f in source_files(pass_path)],
        make_launch=make_launch, settings={"seed": options.seed, "draws": options.draws, "degenerate_std": options.degenerate_std},
        timing=options.timing_config(), need_inductor=need_inductor, timeout_s=options.timeout_s, threads=threads or 1,
        integrity_mode=options.integrity_mode, heldout_shapes=options.heldout_shapes, standby=options.standby,
        profile=options.profile, profile_calls=options.profile_calls,
        cpu_seconds=int(options.timeout_s * (len(keys) + 1) * (os.cpu_count() or 1)) if options.sandbox else None,
        compile_before_lease=bool(options.compile_before_lease if options.compile_before_lease is not None
                                  else device.startswith("cuda")),
        on_ready=(lambda before: gate.acquire(before_lease_s=before)) if gate is not None else None,
        on_device_done=gate.release if gate is not None else None,
        on_phases=gate.add_in_lease if gate is not None else None,
        seed_cache=lambda: seed_candidate_cache(cache_root, options.candidate_cache_scope),
    )
    try:
        run = Referee(plan).run()
    finally:
        if gate is not None:
            gate.release()
    if run.task_errors:
        i, ev = sorted(run.task_errors.items())[0]
        raise TaskError(task.subgraphs[i].path / "model.py", ev["message"])

    subgraphs: list[SubgraphResult] = []
    polluted = baselines_polluted(run.results.values())
    for i, sg in enumerate(task.subgraphs):
        if i in run.results:
            res = subgraph_from_event(i, sg, run.results[i], cached[i], _profile_event(run.profiles, i, options),
                                      options.time_statistic)
            if need_inductor[str(i)] and "eager" in res.times and not polluted and res.times["eager"].median_us > 0:
                cache.put(keys[i], cache_entry(run.results[i]))
        else:
            cls, msg, tail = run.failed[i]
            res = SubgraphResult(
                index=i, name=sg.name, source=sg.source, dtypes=list(sg.dtypes), status=cls,
                failure_class=cls, message=msg, traceback=tail,
            )
        subgraphs.append(res)

    scores = task_scores(subgraphs, options.baseline, options.scoring)
    other = "inductor" if options.baseline == "eager" else "eager"
    other_scores = task_scores(subgraphs, other, options.scoring) if has_times(subgraphs, other) else None
    # Inductor scored as a candidate wherever both baselines were timed (also where the candidate failed).
    timed = any("eager" in s.times and "inductor" in s.times for s in subgraphs)
    ind_scores = inductor_task_scores(subgraphs, options.scoring, options.time_statistic) if timed else None
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
        inductor_scores=ind_scores,
        wall_s=time.perf_counter() - t0,
        warnings=warnings,
        worker_peak_rss_mb=run.max_rss_kb / 1024 if run.max_rss_kb else None,
        sandbox=run.sandbox,
    )


def baselines_polluted(results: Any) -> bool:
    """Whether no baseline time of this evaluation may be cached: a candidate broke an integrity
    rule on any subgraph. The baselines run in clean processes, so nothing of the pass reaches
    them; but a candidate caught working outside its windows (a thread, a process of its own)
    shared the machine with their windows, and what they measured then is not cached as a fact
    about them. ``results`` are the subgraphs' result events."""
    return any(ev.get("failure_class") == "integrity" for ev in results)


def _profile_event(profiles: dict[int, dict[str, Any]], i: int, options: EvalOptions) -> dict[str, Any] | None:
    if not options.profile:
        return None
    time_kind = "device" if options.device.startswith("cuda") else "self_cpu"
    return {"time": time_kind, **profiles.get(i, {"error": "the worker recorded no profile for this subgraph"})}


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
        scores=task_scores(subgraphs, options.baseline, options.scoring), wall_s=time.perf_counter() - t0,
    )


def _failed_to_load(task: Task, pass_path: Path, digest: str, options: EvalOptions, dev_name: str,
                    error: tuple[str, str], t0: float) -> EvalResult:
    """The result for a pass that does not load: every subgraph a ``compile`` failure with the
    load error, scored like any other (SCORING.md); nothing was compiled or timed."""
    message, tb = error
    subgraphs = [
        SubgraphResult(index=i, name=sg.name, source=sg.source, dtypes=list(sg.dtypes), status="compile",
                       failure_class="compile", message=f"the pass failed to load: {message}", traceback=tb or None)
        for i, sg in enumerate(task.subgraphs)
    ]
    return EvalResult(
        task_id=task.id, task_path=str(task.path), pass_path=str(pass_path), pass_sha256=digest,
        config=_eval_config(options), torch_version=torch.__version__, device_name=dev_name, subgraphs=subgraphs,
        scores=task_scores(subgraphs, options.baseline, options.scoring), wall_s=time.perf_counter() - t0,
        other_scores=task_scores(subgraphs, "inductor" if options.baseline == "eager" else "eager", options.scoring),
    )


def _eval_config(options: EvalOptions) -> EvalConfig:
    return EvalConfig(
        device=options.device, baseline=options.baseline, draws=options.draws, seed=options.seed,
        degenerate_std=options.degenerate_std, slowdown_penalty=options.scoring.slowdown_penalty,
        failure_penalty=options.scoring.failure_penalty, timeout_s=options.timeout_s,
        timing_budget_s=options.timing_config().budget_s, integrity_mode=options.integrity_mode,
        static_checks=options.static_checks, sandbox=options.sandbox, profile=options.profile,
        time_statistic=options.time_statistic,
    )
