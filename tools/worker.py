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
import resource
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from .correctness import HEADLINE_LEVEL, Comparison, OutputMismatch, compare_outputs, merge, outputs_equal
from .graph_source import rewrite_device_literals
from .inputs import clone_inputs, is_degenerate, synthesize_inputs
from .integrity import Breach, FunctionGuard, alias_map, check_not_reused, check_outputs, python_threads
from .passes import RuleLoadFailure, load_rules, pass_files
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


def _call(fn: Any, args: list[Any], seed: int) -> Any:
    torch.manual_seed(seed)  # graphs that draw random numbers see the same stream each time
    with torch.no_grad():
        return fn(*args)


def _error_stats(c: Comparison) -> dict[str, Any]:
    return {"min_correct_t": c.min_correct_t, "max_abs": c.max_abs, "max_rel": c.max_rel}


class _CacheTag:
    """A no-op post-grad pass whose ``uuid`` is the pass digest.

    Inductor folds custom passes' uuids into its FX-graph cache key, so tagging the candidate's
    compile with the pass source digest means an edited pass (even one that keeps a custom
    op's name and changes its implementation) can never be served a stale compiled graph,
    while kernel caches, which are keyed by their own source, stay shared and warm.
    """

    def __init__(self, digest: str):
        self.digest = digest

    def __call__(self, graph: torch.fx.Graph) -> None:
        return None

    def uuid(self) -> str:
        return f"passagent-pass-{self.digest}"


def _make_cache_tag(digest: str) -> Any:
    from torch._inductor.custom_graph_pass import CustomGraphPass

    tag_cls = type("PassagentCacheTag", (_CacheTag, CustomGraphPass), {})
    return tag_cls(digest)


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
        self.pass_files = [f for _n, f in pass_files(self.pass_path)] if self.pass_path else []
        self.guard: FunctionGuard | None = None
        self.compromised: Breach | None = None
        self.profile = bool(request.get("profile"))
        self._measured: tuple[dict[str, Any], _Reference] | None = None  # the last subgraph's variants
        self._phase_marks: list[tuple[str, float]] = []  # (step, perf_counter at its start) of this subgraph

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
        self.compromised = self.compromised or self.guard.check()  # type: ignore[union-attr]

    def run(self) -> None:
        if self.req.get("cpu_threads"):
            torch.set_num_threads(int(self.req["cpu_threads"]))
        torch._dynamo.config.suppress_errors = False  # a failing compile must never fall back to eager
        torch._dynamo.config.automatic_dynamic_shapes = False  # a held-out shape gets its own static compile
        import torch._inductor.config as inductor_config

        inductor_config.fallback_random = True  # RNG ops match eager's stream in both baseline and candidate
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
        task = load_task(self.req["task_path"], self.req["task_id"])
        self.events.emit("sandbox", applied=self.sandbox)
        # The pass is imported before any baseline is built: a pass that raises at import fails
        # every subgraph at once, with its traceback, and costs no compile or timing.
        if self.pass_path:
            self._load_rules()
            if self.rule_error is not None and self.compromised is None:
                message, tb = self.rule_error
                for index in self.req["subgraph_indices"]:
                    self.events.emit("result", subgraph=index, failure_class="compile", matches=0, rules=[],
                                     message=f"the pass failed to load: {message}", traceback=tb or None)
                self.events.emit("done", max_rss_kb=_max_rss_kb())
                return
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
        self.events.emit("done", max_rss_kb=_max_rss_kb())

    # -- one subgraph ----------------------------------------------------------------------------

    def evaluate_subgraph(self, index: int, sg: Subgraph) -> dict[str, Any] | None:
        t_start = time.perf_counter()
        self._subgraph = sg
        self._phase_marks = [("inputs", t_start)]

        def emit(phase: str) -> None:
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
        return synthesize_inputs(sg, k, seed=self.seed, device=self.device, degenerate_std=self.req["degenerate_std"])

    def _reference(self, eager: Any, draws: list[list[Any]]) -> _Reference:
        outputs, aliases = [], []
        for d in draws:
            args = clone_inputs(d)
            o = _call(eager, args, self.seed)
            outputs.append(o)
            aliases.append(alias_map(o, args))
        if self.device.type == "cuda":
            torch.cuda.synchronize()
        return _Reference(eager, draws, outputs, aliases)

    def _candidate(self, index: int, sg: Subgraph, out: dict[str, Any], variants: dict[str, Any], ref: _Reference,
                   t_start: float, emit: Any) -> dict[str, Any]:
        from .backend import PassBackend
        import torch._inductor.config as inductor_config

        backend = PassBackend(self.rules, on_phase=emit)  # type: ignore[arg-type]
        candidate = torch.compile(build_module(sg, self.device, f"candidate_{index}"), backend=backend)
        cand_outs = []
        with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
            args = clone_inputs(ref.draws[0])
            try:
                cand_outs.append(_call(candidate, args, self.seed))
            except Exception as exc:
                self._record_rules(out, backend)
                breach = sandbox_breach(exc, self.pass_files)
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
            if breach:
                return self._integrity(out, breach, variants, ref, t_start, emit)
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
                    cand_outs.append(_call(candidate, args, self.seed))
                    # Earlier draws' outputs are still held: memory shared with them is a cache.
                    breach = check_outputs(cand_outs[-1], args, ref.aliases[k]) or check_not_reused(cand_outs[-1], cand_outs[:-1])
                    if breach:
                        return self._integrity(out, breach, variants, ref, t_start, emit)
                if self.device.type == "cuda":
                    torch.cuda.synchronize()
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
            cmp = merge([compare_outputs(o, r) for o, r in zip(cand_outs, ref.outputs)])
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
        out["rules"] = [{"rule": r, "matches": n, "diagnostic": diags.get(r)} for r, n in counts.items()]

    def _integrity(self, out: dict[str, Any], breach: Breach, variants: dict[str, Any], ref: _Reference,
                   t_start: float, emit: Any) -> dict[str, Any]:
        out.update(failure_class="integrity", integrity_rule=breach.rule, message=breach.text())
        variants.pop("candidate", None)
        return self._finish(out, variants, ref, t_start, emit)

    # -- timing and the checks that surround it --------------------------------------------------

    def _finish(self, out: dict[str, Any], variants: dict[str, Any], ref: _Reference, t_start: float, emit: Any,
                established: int | None = None, backend: Any = None, sg: Subgraph | None = None) -> dict[str, Any]:
        emit("timing")
        checking = "candidate" in variants and established is not None and established <= HEADLINE_LEVEL
        last_outputs: list[Any] = []

        def fresh_args(i: int) -> list[Any]:
            # Rotate through the draws: consecutive timed calls see different values, so an
            # answer cached by buffer address or object id is wrong, and caught below.
            return clone_inputs(ref.draws[i % len(ref.draws)])

        def after_call(name: str, i: int, outputs: Any, args: list[Any]) -> None:
            if not checking:
                return
            k = i % len(ref.draws)
            if name != "candidate":
                # The same comparison after every variant's call: what a check leaves in the
                # caches slows the next timed call, so it must follow each variant alike.
                compare_outputs(outputs, ref.outputs[k])
                return
            breach = check_outputs(outputs, args, ref.aliases[k]) or check_not_reused(outputs, last_outputs)
            if breach is None:
                c = compare_outputs(outputs, ref.outputs[k])
                if c.min_correct_t is None or c.min_correct_t > established + 1:  # type: ignore[operator]
                    breach = Breach("timed_output_mismatch", f"timed call {i} returned wrong values for its input "
                                                            f"(max abs error {c.max_abs:.3g}) although the checked calls were correct")
            if breach:
                raise IntegrityAbort(breach)
            last_outputs[:] = [outputs]  # kept alive, so its memory cannot be handed out again

        threads_before = python_threads() if checking else set()
        try:
            # The same grad mode as the correctness calls: a different one would fail Dynamo's
            # guards and time a recompiled graph rather than the one that was checked.
            with torch.no_grad():
                compiled_before = len(backend.applications) if backend is not None else 0
                samples: dict[str, list[float]] = {}
                stats = time_interleaved(variants, fresh_args, device=self.device, config=self.timing, after_call=after_call,
                                         samples_out=samples)
            out["times"] = {name: asdict(s) for name, s in stats.items()}
            out["paired_speedup"] = paired_speedups(samples)
            if checking:
                breach = self._after_timing(variants["candidate"], ref, established, threads_before)  # type: ignore[arg-type]
                if breach is None and backend is not None and len(backend.applications) > compiled_before:
                    breach = Breach("recompiled_during_timing", "the candidate was recompiled while it was being timed")
                if breach is None and sg is not None and self.req.get("heldout_shapes", True):
                    emit("heldout_shape")
                    breach = self._heldout_shape(sg, variants["candidate"], ref, established)  # type: ignore[arg-type]
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
                rows = profile_calls(fn, arg_sets, dev, before_call=lambda: torch.manual_seed(self.seed))
                profile[name] = kernel_table(rows, dev, runs=calls, top=20)
            except Exception as exc:  # noqa: BLE001 - a profile is informative; the result stands
                errors.append(f"profiling {name} raised {_describe_error(exc)}")
        if errors:
            profile["error"] = "; ".join(errors)
        return profile

    def _after_timing(self, candidate: Any, ref: _Reference, established: int, threads_before: set[int]) -> Breach | None:
        breach = self.guard.check()  # type: ignore[union-attr]
        if breach:
            return breach
        if self.device.type == "cuda":
            torch.cuda.synchronize()
        time.sleep(0.05)  # let a thread that was about to exit do so
        new = python_threads() - threads_before
        if new:
            return Breach("background_thread", f"{len(new)} thread(s) started by the candidate are still running")
        # A fresh draw after timing, the candidate first, so no reference for it is in memory yet.
        fresh = self._draw(self._subgraph, self.draws + 1)
        cand = _call(candidate, clone_inputs(fresh), self.seed)
        want = _call(ref.eager, clone_inputs(fresh), self.seed)
        c = compare_outputs(cand, want)
        if c.min_correct_t is None or c.min_correct_t > max(established, HEADLINE_LEVEL) + 1:
            return Breach("post_timing_mismatch", f"after timing, a fresh input gave wrong values (max abs error {c.max_abs:.3g})")
        return None

    def _heldout_shape(self, sg: Subgraph, candidate: Any, ref: _Reference, established: int) -> Breach | None:
        """Correctness on a shape no timed call used, where the graph allows one.

        The leading dimension shared by the subgraph's floating-point activations is grown by
        one; if eager PyTorch accepts that shape, the candidate (recompiled for it, with the
        pass applied again) must be as correct as on the measured shapes. A candidate that
        raises or does not match there is not flagged: specialising to the task's shapes is
        legitimate, being right only where it is measured is not.
        """
        inputs = heldout_inputs(sg, self.draws + 2, self.seed, self.device, self.req["degenerate_std"])
        if inputs is None:
            return None
        try:
            want = _call(ref.eager, clone_inputs(inputs), self.seed)
        except Exception:  # noqa: BLE001 - the graph's shapes are fixed: no held-out shape
            return None
        try:
            got = _call(candidate, clone_inputs(inputs), self.seed)
            c = compare_outputs(got, want)
        except Exception:  # noqa: BLE001 - shape-specialised but honest (it fails loudly)
            return None
        if c.min_correct_t is None or c.min_correct_t > max(established, HEADLINE_LEVEL) + 1:
            shapes = [list(x.shape) for x in inputs if isinstance(x, torch.Tensor)][:3]
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


def heldout_inputs(sg: Subgraph, draw: int, seed: int, device: torch.device, degenerate_std: float) -> list[Any] | None:
    """Inputs of ``sg`` with the activations' common leading dimension grown by one, or None.

    Activations are the floating-point arguments with at least 2 dimensions and no literal
    data; the dimension grown is the most common leading size among them.
    """
    from collections import Counter

    acts = [a for a in sg.args if not a.is_symint and a.meta.data is None and len(a.shape) >= 2 and a.dtype.is_floating_point]
    if not acts:
        return None
    d0 = Counter(a.shape[0] for a in acts).most_common(1)[0][0]
    grown = []
    for a in sg.args:
        if a in acts and a.shape[0] == d0:
            a = dataclasses.replace(a, meta=dataclasses.replace(a.meta, shape=(d0 + 1, *a.shape[1:])))
        grown.append(a)
    return synthesize_inputs(dataclasses.replace(sg, args=tuple(grown)), draw, seed=seed, device=device, degenerate_std=degenerate_std)


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


def _max_rss_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


if __name__ == "__main__":
    sys.exit("run the worker through passagent.tools.worker_entry")
