"""The candidate role: the one process a pass runs in.

It loads the task and the pass, compiles the candidate (Dynamo's graph, the pass's rewrite,
Inductor), runs it on the draws the referee names and writes what it returned to its folder as
data, and runs its timed windows (:mod:`.windows`). Nothing it says is taken on trust: its
outputs are compared in the clean process, its time is the referee's clock around its windows,
and its CPU time, threads and children are read from outside by the referee. What the pass
changes in this process (dispatch keys, flags, clocks, threads) can only change this process's
own time, which is what it is scored on.

No guard inside this process decides anything: a pass that patches a clock, flips a flag or
registers a kernel on a dispatch key changes only what runs here, and whatever runs here is
scored by its outputs and its time as seen from outside. (What it reports about its own
compile, the rewrite's matches, ``no_change`` and ``precision_downgrade``, are verdicts on the
pass's rewrite, not on the process.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from ..process.compile_ahead import DeferredBackend, LeaseFlag, compile_only, placeholder_inputs, unwrap
from ..measure.correctness import bitwise_equal, flatten_outputs
from ..tasks.inputs import clone_inputs
from ..integrity.rules import Breach, alias_map
from ..passes.rules import RuleLoadFailure, load_rules, source_files
from ..integrity.strict_runtime import strict_breach
from ..tasks.loader import load_task
from ..process.tracebacks import trim_traceback
from .steps import _call, _describe_error, _make_cache_tag, build_module, sandbox_breach
from .draws import DrawSpec, draw_inputs, grown_subgraph, growth_from_json
from .wire import write_values
from .windows import Windows


def profile_table(fn: Any, sg: Any, device: torch.device, calls: int, degenerate_std: float) -> dict[str, Any]:
    """``{"table": ...}`` (:func:`passagent.tools.measure.profiling.kernel_table`) of ``fn`` over ``calls``
    calls on narrow draws, after one warm-up call; ``{"error": ...}`` if it raises."""
    from ..measure.profiling import kernel_table, profile_calls
    from .steps import reseed

    try:
        draws = [draw_inputs(sg, DrawSpec(seed=k), device, degenerate_std) for k in range(calls)]
        _call(fn, clone_inputs(draws[0]), 0)
        rows = profile_calls(fn, [clone_inputs(d) for d in draws], device, before_call=lambda: reseed(0))
        return {"ok": True, "table": kernel_table(rows, device, runs=calls, top=20)}
    except Exception as exc:  # noqa: BLE001 - a profile informs; its failure is recorded, not raised
        return {"ok": True, "error": f"profiling raised {_describe_error(exc)}"}


def _breach_json(b: Breach | None) -> dict[str, str] | None:
    return {"rule": b.rule, "message": b.message} if b is not None else None


class CandidateRole:
    """The candidate process's requests; one instance per process (one pass, one evaluation).

    Args:
        device: ``cpu`` or ``cuda``.
        outbox: its folder, where it writes outputs for the clean process to read.
    """

    def __init__(self, device: str, outbox: Path):
        self.device = torch.device(device)
        self.outbox = outbox
        self.task: Any = None
        self.settings: dict[str, Any] = {}
        self.rules: list[Any] | None = None
        self.pass_files: list[Path] = []
        self.strict = False
        self.candidates: dict[int, tuple[Any, Any]] = {}  # subgraph -> (compiled module, its PassBackend)
        self.windows = Windows(self.device, outbox)
        self._files = 0
        self.lease = LeaseFlag()
        self.lease.open()  # closed only while compiling ahead of the lease (op_precompile)
        self._ahead_errors: dict[int, BaseException] = {}
        self._namespaces: list[dict[str, Any]] = []
        self._deferred: dict[int, DeferredBackend] = {}

    def handle(self, op: str, msg: dict[str, Any]) -> dict[str, Any]:
        fn = getattr(self, f"op_{op}", None)
        if fn is None:
            return {"ok": False, "error": f"unknown request {op!r}"}
        return fn(msg)

    def _path(self, stem: str) -> Path:
        self._files += 1
        return self.outbox / f"{stem}-{self._files}.bin"

    def op_task(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("cpu_seconds"):
            import resource

            from ..process.sandbox import apply_resource_limits

            used = resource.getrusage(resource.RUSAGE_SELF)
            apply_resource_limits(cpu_seconds=int(msg["cpu_seconds"]) + int(used.ru_utime + used.ru_stime) + 1)
        self.task = load_task(msg["path"], msg.get("id"))
        self.settings = {k: msg[k] for k in ("seed", "draws", "degenerate_std")}
        return {"ok": True, "subgraphs": len(self.task.subgraphs)}

    def op_load_pass(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Import the pass's rules (its top-level code runs here, and only here)."""
        import torch._inductor.config as inductor_config

        self.pass_files = source_files(msg["path"])
        self.strict = msg.get("integrity_mode") == "strict"
        # Every compile in this process is the candidate's: Inductor's FX-graph cache keys on the pass.
        inductor_config.post_grad_custom_post_pass = _make_cache_tag(msg["digest"])
        try:
            self.rules = load_rules(msg["path"], msg["digest"])
        except RuleLoadFailure as exc:
            cause = exc.__cause__ or exc
            tb = trim_traceback(cause, self.pass_files) if exc.__cause__ else None
            breach = sandbox_breach(exc, self.pass_files)
            return {"ok": True, "load_error": str(exc), "traceback": tb or "", "breach": _breach_json(breach)}
        return {"ok": True}

    def _candidate(self, i: int) -> tuple[Any, Any]:
        if i not in self.candidates:
            from ..passes.backend import PassBackend

            backend = PassBackend(self.rules or [], files=[str(f) for f in self.pass_files], strict=self.strict,
                                  on_phase=self._note_phase)
            module = build_module(self.task.subgraphs[i], self.device, f"candidate_{i}")
            self._namespaces.append(type(module).forward.__globals__)
            self._deferred[i] = DeferredBackend(backend, self.lease)
            self.candidates[i] = (torch.compile(module, backend=self._deferred[i]), backend)
        return self.candidates[i]

    def op_precompile(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Compile the candidate of subgraph ``sg`` (the pass's rewrite, Inductor) without running it,
        on placeholders of the draw's sizes (:mod:`passagent.tools.process.compile_ahead`): host work, done
        before the device lease. A compile that fails is reported at the candidate's first run,
        as if it had failed then. Not in strict mode, whose check runs the replacements."""
        i = int(msg["sg"])
        if self.strict or i in self.candidates:
            return {"ok": True, "compiled": False}
        if self.lease.is_open:
            self.lease = LeaseFlag()
        fn, backend = self._candidate(i)
        spec = DrawSpec.from_json(msg["draw"])
        sg = self.task.subgraphs[i]
        if msg.get("heldout"):
            # The held-out shapes first: Dynamo tries a code object's newest graph first, so the
            # measured shapes' graph, compiled next, is the one every timed call finds first. With a
            # backend of its own, so the subgraph's matches and verdicts are the measured shapes'.
            from ..passes.backend import PassBackend

            deferred = self._deferred[i]
            deferred.backend = PassBackend(self.rules or [], files=[str(f) for f in self.pass_files], strict=self.strict,
                                           on_phase=self._note_phase)
            grown = grown_subgraph(sg, growth_from_json(msg["heldout"]))
            try:
                compile_only(fn, placeholder_inputs(draw_inputs(grown, spec, "cpu", float(self.settings["degenerate_std"])),
                                                    self.device))  # what it raises is raised again by the held-out step
            finally:
                deferred.backend = backend
        example = draw_inputs(sg, spec, "cpu", float(self.settings["degenerate_std"]))
        error = compile_only(fn, placeholder_inputs(example, self.device))
        if error is not None:
            self._ahead_errors[i] = error
        return {"ok": True, "compiled": error is None, "backend": self._backend_report(backend)}

    def op_open_lease(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The device lease is held: graphs compiled ahead may run (and their deferral is taken out)."""
        self.lease.open()
        for namespace in self._namespaces:
            unwrap(namespace)
        return {"ok": True}

    def _note_phase(self, phase: str) -> None:
        """Write the compile step in progress to ``phase`` in the folder: if this process dies, the
        referee reads it to tell a compile failure from a run failure (a claim like any other: both
        classes score alike, SCORING.md)."""
        try:
            (self.outbox / "phase").write_text(phase)
        except OSError:
            pass

    def _backend_report(self, backend: Any) -> dict[str, Any]:
        counts, diags = backend.matches_by_rule(), backend.diagnostics()
        notes, sites = backend.notes(), backend.sites_by_rule()
        return {"matches": backend.total_matches, "no_change": bool(backend.no_change),
                "downgrades": sorted(set(backend.downgrades)),
                "rules": [{"rule": r, "matches": n, "diagnostic": diags.get(r), "notes": notes.get(r, []), "sites": sites[r]}
                          for r, n in counts.items()]}

    def _call_reporting(self, fn: Any, args: list[Any], seed: int, backend: Any) -> dict[str, Any] | Any:
        try:
            return _call(fn, args, seed)
        except Exception as exc:  # noqa: BLE001 - every failure is reported as data
            breach = sandbox_breach(exc, self.pass_files) or strict_breach(exc)
            return {"ok": True, "error": _describe_error(exc), "traceback": trim_traceback(exc, self.pass_files),
                    "phase": getattr(backend, "phase", None), "breach": _breach_json(breach),
                    "backend": self._backend_report(backend) if backend is not None else None}

    def op_run(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Run the candidate of subgraph ``sg`` on correctness draw ``draw`` (compiling it on the
        first call); write its outputs, then its arguments ``written`` after the call."""
        i = int(msg["sg"])
        sg = self.task.subgraphs[i]
        fn, backend = self._candidate(i)
        spec = DrawSpec.from_json(msg["draw"])
        inputs = draw_inputs(sg, spec, self.device, float(self.settings["degenerate_std"]))
        args = clone_inputs(inputs)
        if i in self._ahead_errors:
            def raise_ahead(*_args: Any) -> Any:
                raise self._ahead_errors.pop(i)  # the compile failed ahead of the lease: as at this first call
            out = self._call_reporting(raise_ahead, args, spec.seed, backend)
        else:
            out = self._call_reporting(fn, args, spec.seed, backend)
        if isinstance(out, dict) and out.get("error") is not None and "phase" in out:
            return out
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        mutated = [k for k, (b, a) in enumerate(zip(inputs, args))
                   if isinstance(b, torch.Tensor) and not (isinstance(a, torch.Tensor) and bitwise_equal(b, a))]
        path = self._path("run")
        written = [int(k) for k in msg["written"]]
        outs = flatten_outputs(out)
        write_values(path, outs + [args[k] for k in written], {"aliases": [sorted(a) for a in alias_map(outs, args)]})
        return {"ok": True, "path": str(path), "mutated": mutated, "backend": self._backend_report(backend)}

    def op_heldout(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Run the candidate on the held-out shapes ``sizes`` (Dynamo recompiles for them)."""
        i = int(msg["sg"])
        fn, backend = self._candidate(i)
        grown = grown_subgraph(self.task.subgraphs[i], growth_from_json(msg["growth"]))
        inputs = draw_inputs(grown, DrawSpec(seed=int(msg["seed"]), label="heldout"), self.device,
                             float(self.settings["degenerate_std"]))
        args = clone_inputs(inputs)
        out = self._call_reporting(fn, args, int(msg["seed"]), None)
        if isinstance(out, dict) and out.get("error") is not None and "phase" in out:
            return out
        path = self._path("heldout")
        written = [int(k) for k in msg["written"]]
        write_values(path, flatten_outputs(out) + [args[k] for k in written])
        return {"ok": True, "path": str(path)}

    def op_timing(self, msg: dict[str, Any]) -> dict[str, Any]:
        fn, _backend = self._candidate(int(msg["sg"]))
        self.windows.setup(self.task.subgraphs[int(msg["sg"])], {"candidate": fn}, int(msg["pool_seed"]),
                           float(self.settings["degenerate_std"]))
        return {"ok": True}

    def op_prepare(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.windows.prepare("candidate", list(msg["calls"]), list(msg["rng"]))
        return {"ok": True}

    def op_check(self, msg: dict[str, Any]) -> dict[str, Any]:
        path = self.outbox / "check.bin"
        self.windows.check(path, list(msg.get("written", [])))
        return {"ok": True, "path": str(path)}

    def op_end_timing(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.windows.clear()
        return {"ok": True}

    def op_null(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}

    def op_device_times(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "times": self.windows.device_times(float(msg.get("budget_s", 0.3)))}

    def op_profile(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Kernel table of the candidate of subgraph ``sg`` (torch.profiler over ``calls`` calls)."""
        fn, _backend = self._candidate(int(msg["sg"]))
        return profile_table(fn, self.task.subgraphs[int(msg["sg"])], self.device, int(msg.get("calls", 5)),
                             float(self.settings["degenerate_std"]))

    def op_end_subgraph(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Forget subgraph ``sg``'s candidate; report how many of its graphs were compiled after the
        lease opened although it was compiled ahead (a graph break, the held-out shape)."""
        entry = self.candidates.pop(int(msg["sg"]), None)
        compiled_late = None
        deferred = self._deferred.pop(int(msg["sg"]), None)
        if entry is not None and deferred is not None:
            compiled_late = deferred.compiles_in_lease
        if not self.candidates:
            torch._dynamo.reset()
        return {"ok": True, "compiles_in_lease": compiled_late}
