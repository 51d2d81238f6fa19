"""The evaluation worker: runs inside its own spawned process, one per candidate pass.

For each subgraph it computes the eager reference on several fresh input draws, compiles the
default-Inductor baseline and the candidate (pass + Inductor), checks correctness at every
tolerance level and the runtime integrity rules (:mod:`.integrity`), times the variants
interleaved, and reports each step as a JSON line on its event file. The parent
(:mod:`passagent.tools.evaluate`) reads that file, so whatever the pass does to this process
(crash, hang, exhaust memory) the steps already reported survive and the step in progress
tells which failure class applies.

A profiled evaluation then profiles default Inductor and the candidate (:mod:`.profiling`)
and reports their kernel tables as a separate event after the subgraph's result, so nothing
that happens while profiling can change or lose the result.

Started by :mod:`passagent.tools.worker_entry`, which confines the process first.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import random
import resource
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from .correctness import (HEADLINE_LEVEL, Comparison, OutputMismatch, compare_outputs, flatten_outputs, merge, outputs_equal,
                          reference_precision)
from .graph_source import rewrite_device_literals
from .heldout import heldout_inputs
from .inputs import clone_inputs, is_degenerate, synthesize_inputs
from .integrity import (Breach, FunctionGuard, alias_map, check_input_writes, check_not_reused, check_outputs, python_threads,
                        written_inputs)
from . import physics_floor
from .process_guard import ProcessGuard
from .strict_runtime import strict_breach
from .passes import RuleLoadFailure, load_rules, source_files
from .profiling import enable_cpp_kernel_profile, kernel_table, profile_calls
from .tasks import Subgraph, load_task
from .timing import TimingConfig, speedup_estimates, time_interleaved
from .tracebacks import exception_chain, one_line, root_cause, trim_traceback


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
    Python cost of a timed round (profiled: 1 ms of a ~3 ms round, ``benchmarks/timing_step_profile.py``).
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


def timed_check_rate(device: torch.device) -> float | None:
    """The share of timed rounds followed by the integrity checks (``time_interleaved(check_rate=...)``).

    On CUDA, a secret 10% of rounds (at least 100 are timed, so about ten checked rounds per
    subgraph, the candidate's call in them checked); the rounds that ran checks and the rounds after them are
    not recorded, because the checks slow the next host-bound call by a third or more
    (``benchmarks/harness_overhead.py``). A candidate that answers wrongly on a share ``f`` of its
    calls passes ``n`` rounds unseen with probability ``0.9 ** (f * n)``. On the CPU, where calls
    take milliseconds and only a handful are timed, every call is checked (None).
    """
    return 0.1 if device.type == "cuda" else None


def secret_seed() -> int:
    """A seed from the OS's entropy pool: nothing in the task, the request or the pass determines it."""
    return int.from_bytes(os.urandom(8), "little") & (2**62 - 1)


def _error_stats(c: Comparison) -> dict[str, Any]:
    return {"min_correct_t": c.min_correct_t, "max_abs": c.max_abs, "max_rel": c.max_rel}


def _make_cache_tag(digest: str) -> Any:
    from .backend import pass_cache_tag

    return pass_cache_tag(digest)


class IntegrityAbort(Exception):
    """Raised from a timing hook to stop timing a candidate that broke an integrity rule."""

    def __init__(self, breach: Breach):
        self.breach = breach
        super().__init__(breach.text())


@dataclasses.dataclass
class _Reference:
    eager: Any                      # the eager module
    draws: list[list[Any]]          # inputs per draw (never passed to a callable: clones are)
    outputs: list[Any]              # eager outputs per draw
    aliases: list[Any]              # eager alias map per draw
    writes: list[dict[int, Any]]    # per draw: input index -> its value after eager's call (in-place writes)
    seeds: list[int] | None = None  # per draw: the RNG seed of its calls (None: the request's seed)

    def seed(self, k: int, default: int) -> int:
        return default if self.seeds is None else self.seeds[k]


class Worker:
    def __init__(self, request: dict[str, Any], sandbox: list[str] | None = None):
        self.req = request
        self.sandbox = sandbox or []
        self.events = EventWriter(request["events_path"])
        self.device = torch.device(request["device"])
        self.draws = int(request["draws"])
        self.seed = int(request["seed"])
        self.timing = TimingConfig(**request.get("timing", {}))
        self.rules: list[Any] | None = None
        self.rule_error: tuple[str, str] | None = None
        self.pass_path = request.get("pass_path")
        self.pass_files = source_files(self.pass_path) if self.pass_path else []  # rules and helper modules
        self.guard: FunctionGuard | None = None
        self.process: ProcessGuard | None = None
        self.floor: physics_floor.DeviceFloor | None = None
        self._heldout = False  # the held-out step is running: compile steps are reported as part of it
        self.compromised: Breach | None = None
        self.profile = bool(request.get("profile"))
        self._measured: tuple[dict[str, Any], _Reference] | None = None  # the last subgraph's variants
        self._phase_marks: list[tuple[str, float]] = []  # (step, perf_counter at its start) of this subgraph
        self.task: Any = None
        self._cpu_draws: dict[tuple[int, int], list[Any]] = {}  # (subgraph, draw) -> CPU inputs (prepare)
        self._startup_s: dict[str, float] = {}  # seconds of each start-up step (prepare)

    def _load_rules(self) -> None:
        if self.rules is not None or self.rule_error is not None:
            return
        try:
            self.rules = load_rules(self.pass_path, self.req["pass_digest"])
        except RuleLoadFailure as exc:
            cause = exc.__cause__ or exc
            tb = trim_traceback(cause, self.pass_files) if exc.__cause__ else None
            self.rule_error = (str(exc), tb or "")
            self.compromised = sandbox_breach(exc, self.pass_files)
        self.compromised = self.compromised or self.guard.check() or self.process.check()  # type: ignore[union-attr]

    def run(self) -> None:
        """Start-up (no device), then, with ``request["handshake"]``, report ``ready`` and wait
        for the parent's go line on standard input (:mod:`.lease_gate`), then the device steps."""
        if not self.prepare():
            return
        if self.req.get("handshake"):
            from .lease_gate import wait_for_go

            self.events.emit("ready", before_lease_s=self._startup_s)
            go = wait_for_go(sys.stdin)
            if go is None:  # the parent is gone or gave up: nothing may run on the device
                return
            if go.get("cuda_visible_devices") is not None:
                # Read by CUDA when it starts, which nothing in this process has done yet (a pass
                # that did is caught in prepare): the worker sees the leased GPU alone, as ``cuda:0``.
                os.environ["CUDA_VISIBLE_DEVICES"] = str(go["cuda_visible_devices"])
            self.device = torch.device(go.get("device", self.req["device"]))
        self.execute()

    def prepare(self) -> bool:
        """Everything that needs no device: settings, imports (Inductor, Triton, the harness),
        the guards' snapshots, the task, the pass, the CPU-side input draws. Returns False when
        nothing is left to run on the device (the pass failed to load: every subgraph is reported)."""
        marks = [("imports", time.perf_counter())]
        if self.req.get("cpu_threads"):
            torch.set_num_threads(int(self.req["cpu_threads"]))
        torch._dynamo.config.suppress_errors = False  # a failing compile must never fall back to eager
        torch._dynamo.config.automatic_dynamic_shapes = False  # a held-out shape gets its own static compile
        import torch._inductor.config as inductor_config

        inductor_config.fallback_random = True  # RNG ops match eager's stream in both baseline and candidate
        preload(self.device.type)  # done already in a pre-started worker (:mod:`.standby`)
        if self.device.type == "cuda":
            # Inductor's compile-worker subprocesses initialise CUDA themselves, which the write
            # confinement does not allow them (seen on an H200: every compile after the first
            # failed in the pool); compiling in this process keeps the sandbox whole. Unsandboxed
            # too: the pool made no evaluation faster on the H200 (benchmarks/eval_wall_time.py
            # --modes), and its idle timer thread, started by a candidate's Triton compile, was
            # flagged as the candidate's (integrity rule background_thread).
            inductor_config.compile_threads = 1
        if self.profile:
            enable_cpp_kernel_profile()  # before anything is compiled: C++ kernels get profiler records
        # Identities of the timer, sync, comparison and harness functions and these settings,
        # taken before any pass code is imported into this process.
        self.guard = FunctionGuard()
        self.process = ProcessGuard()
        marks.append(("task_load", time.perf_counter()))
        self.task = load_task(self.req["task_path"], self.req["task_id"])
        self.events.emit("sandbox", applied=self.sandbox)
        cuda_before_pass = _cuda_started()
        # The pass is imported before any baseline is built: a pass that raises at import fails
        # every subgraph at once, with its traceback, and costs no compile, timing or lease.
        marks.append(("pass_load", time.perf_counter()))
        if self.pass_path:
            self._load_rules()
            if self.compromised is None and self.req.get("handshake") and not cuda_before_pass and _cuda_started():
                # Before the lease the device may be another evaluation's: touching it then is
                # outside what the worker is allowed, like a write outside its folder.
                self.compromised = Breach("sandbox", "the pass started CUDA when it was imported, before the worker "
                                                     "was given a device")
            if self.rule_error is not None and self.compromised is None:
                message, tb = self.rule_error
                for index in self.req["subgraph_indices"]:
                    self.events.emit("result", subgraph=index, failure_class="compile", matches=0, rules=[],
                                     message=f"the pass failed to load: {message}", traceback=tb or None)
                self.events.emit("done", max_rss_kb=_max_rss_kb())
                return False
        marks.append(("inputs", time.perf_counter()))
        # Draws are made on the CPU whatever the device (inputs.synthesize_inputs), so they are
        # made now and only moved to the device under the lease.
        self._cpu_draws = {(i, k): synthesize_inputs(self.task.subgraphs[i], k, seed=self.seed, device="cpu",
                                                     degenerate_std=self.req["degenerate_std"])
                           for i in self.req["subgraph_indices"] for k in range(self.draws)}
        self._startup_s = phase_durations(marks, time.perf_counter())
        return True

    def execute(self) -> None:
        """The device steps: the device's floors, then every subgraph (and its profile)."""
        # The device's floors, measured before any candidate is compiled or run. The pass is
        # imported by now (before the lease), but a pass that replaced a timer or sync function
        # at import is already marked compromised (``_load_rules`` checks the guards).
        t_go = time.perf_counter()
        # A compromised process (a timer replaced at import) cannot measure anything, and every
        # subgraph is failed as integrity without a candidate timing that a floor would bound.
        self.floor = physics_floor.measure(self.device) if self.compromised is None else None
        self.events.emit("device_setup", seconds=round(time.perf_counter() - t_go, 4))
        task = self.task
        for index in self.req["subgraph_indices"]:
            self.events.emit("start", subgraph=index)
            self._measured = None
            result = self.evaluate_subgraph(index, task.subgraphs[index])
            if result is not None:
                self.events.emit("result", subgraph=index, **result)
                if self.profile and self._measured is not None:
                    self.events.emit("profile_start", subgraph=index)
                    self.events.emit("profile", subgraph=index, **self.profile_subgraph(index, task.subgraphs[index], result))
            self._measured = None
            torch._dynamo.reset()
        self.events.emit("device_done")  # the parent releases the device lease now
        self.events.emit("done", max_rss_kb=_max_rss_kb())

    # -- one subgraph ----------------------------------------------------------------------------

    def evaluate_subgraph(self, index: int, sg: Subgraph) -> dict[str, Any] | None:
        t_start = time.perf_counter()
        self._subgraph = sg
        self._phase_marks = [("inputs", t_start)]

        self._index = index

        def emit(phase: str) -> None:
            if self._heldout and phase.startswith("candidate_"):
                phase = f"heldout_shape_{phase[len('candidate_'):]}"  # the held-out recompile, not the first compile
            self._phase_marks.append((phase, time.perf_counter()))
            self.events.emit("phase", subgraph=index, phase=phase)

        out: dict[str, Any] = {"degenerate_inputs": [a.name for a in sg.args if is_degenerate(a)], "matches": 0, "rules": []}
        dev = self.device
        draws = [self._draw(sg, k) for k in range(self.draws)]

        emit("eager")
        eager = build_module(sg, dev, f"eager_{index}")
        try:
            ref = self._reference(eager, draws)
        except Exception as exc:  # the task itself is broken, not the pass
            self.events.emit(
                "task_error", subgraph=index,
                message=f"eager run of model.py failed on inputs synthesised from its metadata: {one_line(exc)}",
                traceback=trim_traceback(exc, [sg.path / "model.py"]),
            )
            return None
        same = [all(x) for x in zip(*[outputs_equal(ref.outputs[0], r) for r in ref.outputs[1:]])] if len(draws) > 1 else []
        out["low_signal"] = bool(same) and all(same)
        variants: dict[str, Any] = {"eager": eager}

        if self.req["need_inductor"].get(str(index), True):
            emit("inductor")
            inductor = torch.compile(build_module(sg, dev, f"inductor_{index}"), backend="inductor")
            try:
                outs = [_call(inductor, clone_inputs(d), self.seed) for d in draws]
                out["inductor_error"] = _error_stats(merge([compare_outputs(o, r) for o, r in zip(outs, ref.outputs)]))
                variants["inductor"] = inductor
            except Exception as exc:  # Inductor itself fails on this graph: report, keep going
                out["inductor_failure"] = one_line(exc)

        emit("candidate_load")
        self._load_rules()
        if self.compromised is not None:
            return self._integrity(out, self.compromised, variants, ref, t_start, emit)
        if self.rule_error is not None:
            message, tb = self.rule_error
            out.update(failure_class="compile", message=f"the pass failed to load: {message}", traceback=tb or None)
            return self._finish(out, variants, ref, t_start, emit)
        return self._candidate(index, sg, out, variants, ref, t_start, emit)

    def _draw(self, sg: Subgraph, k: int) -> list[Any]:
        cpu = self._cpu_draws.pop((self._index, k), None)  # made before the lease (prepare)
        if cpu is None:
            return synthesize_inputs(sg, k, seed=self.seed, device=self.device, degenerate_std=self.req["degenerate_std"])
        return [a.to(self.device) if isinstance(a, torch.Tensor) else a for a in cpu]

    def _reference(self, eager: Any, draws: list[list[Any]], seeds: list[int] | None = None) -> _Reference:
        outputs, aliases, writes = [], [], []
        for k, d in enumerate(draws):
            args = clone_inputs(d)
            o = _reference_call(eager, args, self.seed if seeds is None else seeds[k])
            outputs.append(o)
            aliases.append(alias_map(o, args))
            writes.append(written_inputs(d, args))
        if self.device.type == "cuda":
            torch.cuda.synchronize()
        return _Reference(eager, draws, outputs, aliases, writes, seeds)

    def _checked_call(self, candidate: Any, args: list[Any], seed: int) -> Any:
        """A candidate call, then the process guard (raises :class:`IntegrityAbort` on a change)."""
        out = _call(candidate, args, seed)
        if self.process is not None and (breach := self.process.check_call()):
            raise IntegrityAbort(breach)
        return out

    def _candidate(self, index: int, sg: Subgraph, out: dict[str, Any], variants: dict[str, Any], ref: _Reference,
                   t_start: float, emit: Any) -> dict[str, Any]:
        from .backend import PassBackend
        import torch._inductor.config as inductor_config

        backend = PassBackend(self.rules, on_phase=emit, files=[str(f) for f in self.pass_files],  # type: ignore[arg-type]
                              strict=self.req.get("integrity_mode") == "strict")
        candidate = torch.compile(build_module(sg, self.device, f"candidate_{index}"), backend=backend)
        cand_outs = []
        with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
            args = clone_inputs(ref.draws[0])
            try:
                cand_outs.append(self._checked_call(candidate, args, self.seed))
            except IntegrityAbort as exc:
                self._record_rules(out, backend)
                return self._integrity(out, exc.breach, variants, ref, t_start, emit)
            except Exception as exc:
                self._record_rules(out, backend)
                breach = sandbox_breach(exc, self.pass_files) or strict_breach(exc)
                if breach:
                    return self._integrity(out, breach, variants, ref, t_start, emit)
                phase = backend.phase
                what = {"rewrite": "applying the pass", "inductor": "Inductor compiling the rewritten graph"}.get(phase or "", "running the candidate")
                out.update(failure_class="compile" if phase else "runtime", message=f"{what} raised {_describe_error(exc)}",
                           traceback=trim_traceback(exc, self.pass_files))
                return self._finish(out, variants, ref, t_start, emit)
            self._record_rules(out, backend)
            if backend.total_matches == 0:
                detail = "\n".join(f"[{rule}] {text}" for rule, text in backend.diagnostics().items())
                out.update(failure_class="compile", message=f"the pass matched nothing in this subgraph.\n{detail}".strip())
                return self._finish(out, variants, ref, t_start, emit)
            if backend.no_change:
                return self._integrity(out, Breach("no_change", "the graph Inductor compiles is the same with and without the pass "
                                                   "(it runs the original ops, e.g. under a new name): the pass changes nothing"),
                                       variants, ref, t_start, emit)
            if backend.downgrades:
                return self._integrity(out, Breach("precision_downgrade", "the rewritten graph converts to "
                                                   f"{', '.join(sorted(set(backend.downgrades)))}, which the original graph never uses"),
                                       variants, ref, t_start, emit)
            breach = check_outputs(cand_outs[0], args, ref.aliases[0])
            breach, writes = (breach, None) if breach else check_input_writes(ref.draws[0], args, ref.writes[0])
            if breach:
                return self._integrity(out, breach, variants, ref, t_start, emit)
            write_cmps = [writes] if writes is not None else []
            emit("candidate_run")
            # Every draw's inputs stay alive until the checks end, so each draw is at addresses no
            # earlier call saw: a cache keyed by address (data_ptr, id) always misses here and is
            # then caught, as an integrity breach, by the timed-output checks. (Freed, the next
            # draw's inputs could reuse the previous draw's addresses, and such a cache returned
            # the previous draw's outputs: scored as wrong values, a class AS tolerates at t >= 1.)
            held = [args]
            try:
                for k, d in enumerate(ref.draws[1:], start=1):
                    args = clone_inputs(d)
                    held.append(args)
                    cand_outs.append(self._checked_call(candidate, args, self.seed))
                    # Earlier draws' outputs are still held: memory shared with them is a cache.
                    breach = check_outputs(cand_outs[-1], args, ref.aliases[k]) or check_not_reused(cand_outs[-1], cand_outs[:-1])
                    if breach is None:
                        breach, writes = check_input_writes(ref.draws[k], args, ref.writes[k])
                        if writes is not None:
                            write_cmps.append(writes)
                    if breach:
                        return self._integrity(out, breach, variants, ref, t_start, emit)
                if self.device.type == "cuda":
                    torch.cuda.synchronize()
            except IntegrityAbort as exc:
                return self._integrity(out, exc.breach, variants, ref, t_start, emit)
            except Exception as exc:
                breach = sandbox_breach(exc, self.pass_files)
                if breach:
                    return self._integrity(out, breach, variants, ref, t_start, emit)
                out.update(failure_class="runtime", message=f"the candidate raised {_describe_error(exc)}",
                           traceback=trim_traceback(exc, self.pass_files))
                return self._finish(out, variants, ref, t_start, emit)
        del held
        emit("correctness")
        try:
            # In-place writes to inputs are outputs too: a candidate that drops one has wrong values.
            cmp = merge([compare_outputs(o, r) for o, r in zip(cand_outs, ref.outputs)] + write_cmps)
        except OutputMismatch as exc:
            out.update(failure_class="runtime", message=f"output mismatch: {exc}")
            return self._finish(out, variants, ref, t_start, emit)
        out["candidate_error"] = _error_stats(cmp)
        if cmp.nonfinite:
            out.update(failure_class="runtime", message="the candidate produced NaN/Inf where the reference is finite")
            return self._finish(out, variants, ref, t_start, emit)
        if cmp.min_correct_t is None or cmp.min_correct_t > HEADLINE_LEVEL:
            where = "at no tolerance level" if cmp.min_correct_t is None else f"only from t={cmp.min_correct_t}"
            out.update(failure_class="accuracy", message=f"wrong values: correct {where} (max abs error {cmp.max_abs:.3g}, "
                                                         f"max rel error {cmp.max_rel:.3g}, worst output {cmp.worst_output})")
        elif cmp.min_correct_t > -10:
            out["failure_class"] = "accuracy"  # applies only below min_correct_t
        variants["candidate"] = candidate
        return self._finish(out, variants, ref, t_start, emit, established=cmp.min_correct_t, backend=backend, sg=sg)

    def _record_rules(self, out: dict[str, Any], backend: Any) -> None:
        counts = backend.matches_by_rule()
        diags = backend.diagnostics()
        out["matches"] = backend.total_matches
        notes, sites = backend.notes(), backend.sites_by_rule()
        out["rules"] = [{"rule": r, "matches": n, "diagnostic": diags.get(r), "notes": notes.get(r, []), "sites": sites[r]}
                        for r, n in counts.items()]

    def _integrity(self, out: dict[str, Any], breach: Breach, variants: dict[str, Any], ref: _Reference,
                   t_start: float, emit: Any) -> dict[str, Any]:
        out.update(failure_class="integrity", integrity_rule=breach.rule, message=breach.text())
        variants.pop("candidate", None)
        return self._finish(out, variants, ref, t_start, emit)

    # -- timing and the checks that surround it --------------------------------------------------

    def _finish(self, out: dict[str, Any], variants: dict[str, Any], ref: _Reference, t_start: float, emit: Any,
                established: int | None = None, backend: Any = None, sg: Subgraph | None = None) -> dict[str, Any]:
        emit("timing")
        # Every candidate that is timed is checked while and after it is timed, whatever its
        # correctness class (a candidate correct only from t = 1 is still scored there).
        checking = "candidate" in variants and established is not None
        checked_ref = ref
        t_secret = time.perf_counter()
        if "candidate" in variants:
            # Timed calls get draws the candidate has never seen, from a seed it cannot know;
            # the eager reference for them is computed now, with its own RNG seed per draw, so a
            # graph with random ops is compared with eager under the same generator state.
            rng = random.SystemRandom()
            seeds = [secret_seed() for _ in ref.draws]
            secret = [synthesize_inputs(self._subgraph, 0, seed=s, device=self.device, degenerate_std=self.req["degenerate_std"])
                      for s in seeds]
            ref = self._reference(ref.eager, secret, seeds=[rng.getrandbits(62) for _ in seeds])
        secret_s = time.perf_counter() - t_secret
        check_s = [0.0]  # seconds inside after_call (the checks of check rounds)
        last_outputs: list[Any] = []
        sampled: list[tuple[int, Any, list[Any]]] = []  # (draw, outputs, args after) of sampled timed calls
        sample_rate = 0.1
        rng = random.SystemRandom()

        def fresh_args(i: int) -> list[Any]:
            # Rotate through the draws: consecutive timed calls see different values, so an
            # answer cached by buffer address or object id is wrong, and caught below. Every
            # variant's round-i call gets the same RNG seed as the reference of its draw.
            k = i % len(ref.draws)
            reseed(ref.seed(k, self.seed))
            return clone_inputs(ref.draws[k])

        def after_call(name: str, i: int, outputs: Any, args: list[Any]) -> None:
            t0 = time.perf_counter()
            try:
                _checks(name, i, outputs, args)
            finally:
                check_s[0] += time.perf_counter() - t0

        check_rate = timed_check_rate(self.device)

        def _checks(name: str, i: int, outputs: Any, args: list[Any]) -> None:
            # Where every round is recorded (check_rate None), the same checks follow every
            # variant's call: what a check leaves in the caches slows the next timed call, so each
            # variant must pay it alike. Where check rounds and their successors are not recorded,
            # nothing a check leaves behind reaches a recorded sample, and only the candidate's
            # calls are checked (only its verdicts count; the process guard sees what its call changed).
            if check_rate is not None and name != "candidate":
                return
            breach = self.process.check_call(grad_enabled=False) if self.process is not None else None
            if breach:
                raise IntegrityAbort(breach)
            if not checking:
                return
            k = i % len(ref.draws)
            if name != "candidate":
                compare_outputs(outputs, ref.outputs[k])
                check_input_writes(ref.draws[k], args, ref.writes[k])
                return
            breach = check_outputs(outputs, args, ref.aliases[k]) or check_not_reused(outputs, last_outputs)
            if breach is None:
                c = compare_outputs(outputs, ref.outputs[k])
                breach, writes = check_input_writes(ref.draws[k], args, ref.writes[k])
                c = merge([c, writes]) if writes is not None else c
                if breach is None and (c.min_correct_t is None or c.min_correct_t > established + 1):  # type: ignore[operator]
                    breach = Breach("timed_output_mismatch", f"timed call {i} returned wrong values for its input "
                                                            f"(max abs error {c.max_abs:.3g}) although the checked calls were correct")
            if breach:
                raise IntegrityAbort(breach)
            if rng.random() < sample_rate or not sampled:
                # Kept for a re-run through eager after timing, on the same inputs and seed.
                sampled.append((k, [o.clone() if isinstance(o, torch.Tensor) else o for o in flatten_outputs(outputs)],
                                clone_inputs(args)))
            last_outputs[:] = [outputs]  # kept alive, so its memory cannot be handed out again

        threads_before = python_threads() if checking else set()
        try:
            # The same grad mode as the correctness calls: a different one would fail Dynamo's
            # guards and time a recompiled graph rather than the one that was checked.
            with torch.no_grad():
                compiled_before = len(backend.applications) if backend is not None else 0
                samples: dict[str, list[float]] = {}
                stop: dict[str, Any] = {}
                stats = time_interleaved(variants, fresh_args, device=self.device, config=self.timing, after_call=after_call,
                                         samples_out=samples, check_rate=check_rate, stop_out=stop)
            out["times"] = {name: asdict(s) for name, s in stats.items()}
            out["timing_stop"] = stop
            stop.update(inputs_s=round(secret_s, 4), checks_s=round(check_s[0], 4))
            out["paired_speedup"] = paired_speedups(samples)
            if checking:
                t_after = time.perf_counter()
                breach = self._after_timing(variants["candidate"], ref, established, threads_before, sampled)  # type: ignore[arg-type]
                stop["after_s"] = round(time.perf_counter() - t_after, 4)
                if breach is None and backend is not None and len(backend.applications) > compiled_before:
                    breach = Breach("recompiled_during_timing", "the candidate was recompiled while it was being timed")
                if breach is None and self.floor is not None:
                    reason = physics_floor.below_floor(
                        stats["candidate"].median_us, self.floor, physics_floor.written_bytes(ref.outputs[0], ref.aliases[0]),
                        writes_fresh_output=any(not a for a in ref.aliases[0]))
                    if reason:
                        breach = Breach("physics_floor", f"the candidate's {reason}: faster than the device can be")
                if breach is None and sg is not None and self.req.get("heldout_shapes", True):
                    emit("heldout_shape")
                    # What was measured is reported first: a crash in the held-out step keeps it.
                    self.events.emit("measured", subgraph=self._index, **out)
                    self._heldout = True
                    try:
                        breach = self._heldout_shape(sg, variants["candidate"], ref, established)  # type: ignore[arg-type]
                    finally:
                        self._heldout = False
                if breach is not None:
                    raise IntegrityAbort(breach)
        except IntegrityAbort as exc:
            out.update(failure_class="integrity", integrity_rule=exc.breach.rule, message=exc.breach.text())
            out.setdefault("times", {})
            out["times"].pop("candidate", None)
            out.pop("paired_speedup", None)
        except Exception as exc:
            if "candidate" in variants:
                out.update(failure_class="runtime", message=f"the candidate raised while being timed: {_describe_error(exc)}",
                           traceback=trim_traceback(exc, self.pass_files))
            out["times"] = {}
            out.pop("paired_speedup", None)
        if self.process is not None and self.process.changed_flags:
            out["process_flags_changed"] = sorted(self.process.changed_flags)
        out["wall_s"] = time.perf_counter() - t_start
        out["phase_s"] = phase_durations(self._phase_marks, time.perf_counter())
        self._measured = (variants, ref)
        return out

    # -- profiling (after the result is reported) -----------------------------------------------

    def profile_subgraph(self, index: int, sg: Subgraph, out: dict[str, Any]) -> dict[str, Any]:
        """Kernel tables of default Inductor and of the candidate (where it was timed cleanly).

        Where the Inductor baseline came from the cache (not compiled in this worker), it is
        compiled here for its profile only. Each profiled call gets its own copy of the inputs,
        made before the profiler starts.
        """
        variants, ref = self._measured  # type: ignore[misc]
        dev, calls = self.device, int(self.req.get("profile_calls", 5))
        profile: dict[str, Any] = {"time": "device" if dev.type == "cuda" else "self_cpu"}
        errors: list[str] = []
        todo: list[tuple[str, Any]] = []
        if out.get("inductor_failure"):
            errors.append(f"default Inductor fails on this subgraph: {out['inductor_failure']}")
        else:
            inductor = variants.get("inductor")
            if inductor is None:
                inductor = torch.compile(build_module(sg, dev, f"inductor_profile_{index}"), backend="inductor")
            todo.append(("inductor", inductor))
        if "candidate" in variants and "candidate" in out.get("times", {}):
            todo.append(("candidate", variants["candidate"]))
        else:
            errors.append(f"the candidate was not profiled: it failed ({out.get('failure_class') or 'not timed'})")
        for name, fn in todo:
            try:
                _call(fn, clone_inputs(ref.draws[0]), self.seed)  # warm-up (compiles a cached baseline)
                arg_sets = [clone_inputs(ref.draws[k % len(ref.draws)]) for k in range(calls)]
                rows = profile_calls(fn, arg_sets, dev, before_call=lambda: reseed(self.seed))
                profile[name] = kernel_table(rows, dev, runs=calls, top=20)
            except Exception as exc:  # noqa: BLE001 - a profile is informative; the result stands
                errors.append(f"profiling {name} raised {_describe_error(exc)}")
        if errors:
            profile["error"] = "; ".join(errors)
        return profile

    def _after_timing(self, candidate: Any, ref: _Reference, established: int, threads_before: set[int],
                      sampled: list[tuple[int, list[Any], list[Any]]]) -> Breach | None:
        breach = self.guard.check() or self.process.check()  # type: ignore[union-attr]
        if breach:
            return breach
        if self.device.type == "cuda":
            torch.cuda.synchronize()
        new = python_threads() - threads_before
        if new:
            time.sleep(0.05)  # let a thread that was about to exit do so
            new = python_threads() - threads_before
        if new:
            return Breach("background_thread", f"{len(new)} thread(s) started by the candidate are still running")
        limit = max(established, HEADLINE_LEVEL) + 1
        # A sample of the timed calls, re-run through eager now on the same inputs and RNG seed:
        # their outputs and their in-place writes must agree (the eager run comes after the
        # candidate's, so no reference was in memory while the candidate ran).
        for k, outputs, args_after in sampled:
            args = clone_inputs(ref.draws[k])
            want = _reference_call(ref.eager, args, ref.seed(k, self.seed))
            c = merge([compare_outputs(outputs, want), compare_outputs(args_after, args)])
            if c.min_correct_t is None or c.min_correct_t > limit:
                return Breach("post_timing_mismatch", f"a timed call, re-run through eager after timing, disagrees "
                                                      f"(max abs error {c.max_abs:.3g})")
        # A fresh secret draw after timing, the candidate first, so no reference for it is in memory yet.
        seed = secret_seed()
        fresh = synthesize_inputs(self._subgraph, 0, seed=seed, device=self.device, degenerate_std=self.req["degenerate_std"])
        cand_args = clone_inputs(fresh)
        cand = self._checked_call(candidate, cand_args, seed)
        want_args = clone_inputs(fresh)
        want = _reference_call(ref.eager, want_args, seed)
        c = merge([compare_outputs(cand, want), compare_outputs(cand_args, want_args)])
        if c.min_correct_t is None or c.min_correct_t > limit:
            return Breach("post_timing_mismatch", f"after timing, a fresh input gave wrong values (max abs error {c.max_abs:.3g})")
        return None

    def _heldout_shape(self, sg: Subgraph, candidate: Any, ref: _Reference, established: int) -> Breach | None:
        """Correctness on shapes no checked or timed call used, where the graph allows them.

        Every size eager accepts grown is grown (:mod:`.heldout`); the candidate, recompiled for
        the new shapes under the same pass-digest cache tag as its first compile (so it is never
        served another pass's compiled graph), must be as correct there as on the measured
        shapes. Raising there fails too: a pass may specialise its fast path, but must not break
        the graph elsewhere.
        """
        seed = secret_seed()
        want: dict[str, Any] = {}

        def accepts(inputs: list[Any]) -> bool:
            args = clone_inputs(inputs)
            want["outputs"], want["args"] = _reference_call(ref.eager, args, seed), args
            return True

        found = heldout_inputs(sg, seed, self.device, self.req["degenerate_std"], accepts)
        if found is None:
            return None
        inputs, sizes = found
        accepts(inputs)  # the reference for the chosen inputs (the last try may have been refused)
        shapes = [list(x.shape) for x in inputs if isinstance(x, torch.Tensor)][:3]
        import torch._inductor.config as inductor_config

        args = clone_inputs(inputs)
        try:
            with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
                got = self._checked_call(candidate, args, seed)
            c = merge([compare_outputs(got, want["outputs"]), compare_outputs(args, want["args"])])
        except IntegrityAbort as exc:
            return exc.breach
        except Exception as exc:  # noqa: BLE001 - raising where eager runs is a failure of the pass
            if breach := strict_breach(exc):
                return breach
            return Breach("shape_special_case", f"the candidate raised on the held-out shapes {shapes}... (sizes {sizes} "
                                                f"grown by one), where eager runs: {_describe_error(exc)}")
        if c.min_correct_t is None or c.min_correct_t > max(established, HEADLINE_LEVEL) + 1:
            return Breach("shape_special_case", f"correct on the measured shapes but wrong on the held-out shapes {shapes}... "
                                                f"(max abs error {c.max_abs:.3g})")
        return None


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
    pre-started worker (:mod:`.standby`) runs it while it waits and the worker's own call is free.
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
    from . import backend, rewrite, triton_ops  # noqa: F401


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


def _cuda_started() -> bool:
    """Whether CUDA has been started in this process (a context exists); never starts it."""
    return bool(torch.cuda.is_initialized())


def _max_rss_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


if __name__ == "__main__":
    sys.exit("run the worker through passagent.tools.worker_entry")
