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

The timing step and the checks around it are :mod:`.worker_timing` (a mixin of :class:`Worker`);
what the steps share (building and calling variants, seeding, events, start-up) is
:mod:`.worker_calls`, re-exported here.

Started by :mod:`passagent.tools.worker_entry`, which confines the process first.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import torch

from .compile_ahead import DeferredBackend, LeaseFlag, compile_only, placeholder_inputs, unwrap
from .correctness import HEADLINE_LEVEL, OutputMismatch, compare_outputs, merge, outputs_equal
from .heldout import heldout_inputs
from .inputs import clone_inputs, is_degenerate, synthesize_inputs
from .integrity import Breach, FunctionGuard, alias_map, check_input_writes, check_not_reused, check_outputs, written_inputs
from . import physics_floor
from .process_guard import ProcessGuard
from .strict_runtime import strict_breach
from .passes import RuleLoadFailure, load_rules, source_files
from .profiling import enable_cpp_kernel_profile, kernel_table, profile_calls
from .tasks import Subgraph, load_task
from .timing import TimingConfig
from .tracebacks import one_line, trim_traceback
from .worker_calls import (EventWriter, IntegrityAbort, Reference, _call, _cuda_started, _describe_error, _error_stats,  # noqa: F401
                           _make_cache_tag, _max_rss_kb, _reference_call, build_module, paired_speedups, persist_precompiled_headers,
                           phase_durations, preload, reseed, sandbox_breach, secret_seed, timed_check_rate)
from .worker_timing import TimingStep


@dataclass
class CompiledAhead:
    """One subgraph's variants compiled before the device lease (:mod:`.compile_ahead`).

    Attributes:
        inductor: default Inductor's compiled module (None where it is not timed here).
        inductor_error: what its compile raised (reported at its first call, as without the split).
        candidate: the candidate's compiled module; ``backend`` its :class:`.backend.PassBackend`.
        candidate_error: what the candidate's compile (the pass's rewrite, Inductor) raised.
        breach: an integrity breach the process guard found after the pass's rewrite ran.
        seconds: seconds of each compile (``inductor``, ``candidate``).
    """

    inductor: Any = None
    inductor_error: BaseException | None = None
    candidate: Any = None
    backend: Any = None
    candidate_error: BaseException | None = None
    breach: Breach | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    deferred: list[DeferredBackend] = field(default_factory=list)
    namespaces: list[dict[str, Any]] = field(default_factory=list)  # the compiled modules' globals (unwrap)

    def compiles_in_lease(self) -> int:
        return sum(d.compiles_in_lease for d in self.deferred)


class Worker(TimingStep):
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
        self._measured: tuple[dict[str, Any], Reference] | None = None  # the last subgraph's variants
        self._phase_marks: list[tuple[str, float]] = []  # (step, perf_counter at its start) of this subgraph
        self.task: Any = None
        self._cpu_draws: dict[tuple[int, int], list[Any]] = {}  # (subgraph, draw) -> CPU inputs (prepare)
        self._startup_s: dict[str, float] = {}  # seconds of each start-up step (prepare)
        self.lease_flag = LeaseFlag()  # opened when the device steps begin (execute)
        self._ahead: dict[int, CompiledAhead] = {}  # subgraph -> its variants compiled before the lease

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
        if self.req.get("compile_before_lease") and self.compromised is None:
            marks.append(("compile", time.perf_counter()))
            self.compile_ahead()
        self._startup_s = phase_durations(marks, time.perf_counter())
        return True

    def compile_ahead(self) -> None:
        """Compile default Inductor and the candidate of every subgraph, without running them
        (:mod:`.compile_ahead`): host work, done before the device lease. On a GPU this starts
        CUDA (placeholders are allocated on the device, kernels are loaded), which is why the
        request asks for it only where the worker's GPU was fixed when it was spawned. Each step is
        reported as a ``precompile`` event, so a crash or hang there is blamed on its subgraph."""
        for index in self.req["subgraph_indices"]:
            ahead = CompiledAhead()
            self._ahead[index] = ahead
            try:
                self._compile_subgraph_ahead(index, self.task.subgraphs[index], ahead)
            except Exception:  # noqa: BLE001 - the task's own code or inputs: the device step meets and reports it
                del self._ahead[index]

    def _compile_subgraph_ahead(self, index: int, sg: Subgraph, ahead: CompiledAhead) -> None:
        """:meth:`compile_ahead` for one subgraph. What the pass raises is kept in ``ahead``; what
        escapes is the harness's or the task's (its ``model.py``, its inputs)."""
        from .backend import PassBackend
        import torch._inductor.config as inductor_config

        dev = self.device
        inputs = placeholder_inputs(self._cpu_draws[(index, 0)], dev)
        if self.req["need_inductor"].get(str(index), True):
            self.events.emit("precompile", subgraph=index, phase="inductor")
            t0 = time.perf_counter()
            deferred = DeferredBackend(torch._TorchCompileInductorWrapper(None, None, None), self.lease_flag)
            module = build_module(sg, dev, f"inductor_{index}")
            ahead.namespaces.append(type(module).forward.__globals__)
            ahead.inductor = torch.compile(module, backend=deferred)
            ahead.deferred.append(deferred)
            ahead.inductor_error = compile_only(ahead.inductor, inputs)
            ahead.seconds["inductor"] = round(time.perf_counter() - t0, 4)
        if self.rules is None or self.req.get("integrity_mode") == "strict":
            # Strict mode's check runs the rewritten graph's replacements once, on the example
            # inputs (:mod:`.strict_runtime`): device work, so that candidate compiles under the lease.
            return
        self.events.emit("precompile", subgraph=index, phase="candidate_load")
        t0 = time.perf_counter()

        def backend(prefix: str = "candidate_") -> Any:
            def report(phase: str, i: int = index) -> None:
                self.events.emit("precompile", subgraph=i, phase=prefix + phase.removeprefix("candidate_"))

            return PassBackend(self.rules, files=[str(f) for f in self.pass_files], on_phase=report)

        ahead.backend = backend()
        deferred = DeferredBackend(ahead.backend, self.lease_flag)
        module = build_module(sg, dev, f"candidate_{index}")
        ahead.namespaces.append(type(module).forward.__globals__)
        ahead.candidate = torch.compile(module, backend=deferred)
        ahead.deferred.append(deferred)
        with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
            predict = self.req.get("heldout_shapes", True) and self.req.get("heldout_ahead", True)
            heldout = self._heldout_placeholders(sg) if predict else None
            if heldout is not None:
                # The held-out shape first: Dynamo tries a code object's newest graph first, so the
                # measured shape's graph, compiled next, is the one every timed call finds first.
                # Its own backend: the subgraph's matches, sites and no-change verdict are the
                # measured shape's. What it raised is not kept: the held-out step recompiles and reports it.
                deferred.backend = backend("heldout_shape_")
                compile_only(ahead.candidate, heldout)
                deferred.backend = ahead.backend
            ahead.candidate_error = compile_only(ahead.candidate, inputs)
        # The pass's rewrite ran: what it changed in the process is its breach, found as after a call.
        ahead.breach = self.process.check_call() if self.process is not None else None  # type: ignore[union-attr]
        ahead.seconds["candidate"] = round(time.perf_counter() - t0, 4)

    def _heldout_placeholders(self, sg: Subgraph) -> list[Any] | None:
        """Placeholders at the held-out step's likely shapes, or None: the sizes that step would grow,
        found by running eager on fake tensors (``FakeTensorMode``: shapes and dtypes only, no memory
        and no kernel). The step itself, under the lease, chooses again with eager on the device;
        where it chooses other sizes (an op without a fake kernel, a data-dependent shape), it
        compiles them then."""
        from torch._subclasses.fake_tensor import FakeTensorMode

        try:
            with FakeTensorMode(allow_non_fake_inputs=True):
                eager = build_module(sg, self.device, "heldout_probe")

                def accepts(inputs: list[Any]) -> bool:
                    with torch.no_grad():
                        eager(*inputs)
                    return True

                found = heldout_inputs(sg, 0, self.device, self.req["degenerate_std"], accepts)
        except Exception:  # noqa: BLE001 - a guess only: the held-out step decides under the lease
            return None
        return None if found is None else placeholder_inputs(found[0], self.device)

    def execute(self) -> None:
        """The device steps: the device's floors, then every subgraph (and its profile)."""
        # The device's floors, measured before any candidate is compiled or run. The pass is
        # imported by now (before the lease), but a pass that replaced a timer or sync function
        # at import is already marked compromised (``_load_rules`` checks the guards).
        t_go = time.perf_counter()
        self.lease_flag.open()
        for ahead in self._ahead.values():
            for namespace in ahead.namespaces:
                unwrap(namespace)
        # A compromised process (a timer replaced at import) cannot measure anything, and every
        # subgraph is failed as integrity without a candidate timing that a floor would bound.
        self.floor = physics_floor.measure(self.device) if self.compromised is None else None
        self.events.emit("device_setup", seconds=round(time.perf_counter() - t_go, 4))
        task = self.task
        for index in self.req["subgraph_indices"]:
            self.events.emit("start", subgraph=index)
            self._measured = None
            result = self.evaluate_subgraph(index, task.subgraphs[index])
            if result is not None and index in self._ahead:
                result["compiles_in_lease"] = self._ahead[index].compiles_in_lease()
            if result is not None:
                self.events.emit("result", subgraph=index, **result)
                if self.profile and self._measured is not None:
                    self.events.emit("profile_start", subgraph=index)
                    self.events.emit("profile", subgraph=index, **self.profile_subgraph(index, task.subgraphs[index], result))
            self._measured = None
            self._ahead.pop(index, None)
            if not self._ahead:  # a reset would drop the graphs compiled ahead for the subgraphs still to come
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

        ahead = self._ahead.get(index)
        if ahead is not None:
            out["before_lease_s"] = ahead.seconds
        if self.req["need_inductor"].get(str(index), True):
            emit("inductor")
            if ahead is not None and ahead.inductor is not None:
                inductor = ahead.inductor
            else:
                inductor = torch.compile(build_module(sg, dev, f"inductor_{index}"), backend="inductor")
            try:
                if ahead is not None and ahead.inductor_error is not None:
                    raise ahead.inductor_error
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

    def _reference(self, eager: Any, draws: list[list[Any]], seeds: list[int] | None = None) -> Reference:
        outputs, aliases, writes = [], [], []
        for k, d in enumerate(draws):
            args = clone_inputs(d)
            o = _reference_call(eager, args, self.seed if seeds is None else seeds[k])
            outputs.append(o)
            aliases.append(alias_map(o, args))
            writes.append(written_inputs(d, args))
        if self.device.type == "cuda":
            torch.cuda.synchronize()
        return Reference(eager, draws, outputs, aliases, writes, seeds)

    def _checked_call(self, candidate: Any, args: list[Any], seed: int) -> Any:
        """A candidate call, then the process guard (raises :class:`IntegrityAbort` on a change)."""
        out = _call(candidate, args, seed)
        if self.process is not None and (breach := self.process.check_call()):
            raise IntegrityAbort(breach)
        return out

    def _candidate(self, index: int, sg: Subgraph, out: dict[str, Any], variants: dict[str, Any], ref: Reference,
                   t_start: float, emit: Any) -> dict[str, Any]:
        from .backend import PassBackend
        import torch._inductor.config as inductor_config

        ahead = self._ahead.get(index)
        if ahead is not None and ahead.candidate is not None:
            candidate, backend = ahead.candidate, ahead.backend
            backend.on_phase = emit  # a recompile under the lease (the held-out shape) is reported as a step
        else:
            backend = PassBackend(self.rules, on_phase=emit, files=[str(f) for f in self.pass_files],  # type: ignore[arg-type]
                                  strict=self.req.get("integrity_mode") == "strict")
            candidate = torch.compile(build_module(sg, self.device, f"candidate_{index}"), backend=backend)
        cand_outs = []
        with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
            args = clone_inputs(ref.draws[0])
            try:
                if ahead is not None and ahead.breach is not None:
                    raise IntegrityAbort(ahead.breach)
                if ahead is not None and ahead.candidate_error is not None:
                    raise ahead.candidate_error  # the compile failed before the lease: reported as at its first call
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

    def _integrity(self, out: dict[str, Any], breach: Breach, variants: dict[str, Any], ref: Reference,
                   t_start: float, emit: Any) -> dict[str, Any]:
        out.update(failure_class="integrity", integrity_rule=breach.rule, message=breach.text())
        variants.pop("candidate", None)
        return self._finish(out, variants, ref, t_start, emit)

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


if __name__ == "__main__":
    sys.exit("run the worker through passagent.tools.worker_entry")
