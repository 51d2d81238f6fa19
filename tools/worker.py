"""The evaluation worker: runs inside its own spawned process, one per candidate pass.

It builds each subgraph, computes the eager reference on several fresh input draws, compiles
the default-Inductor baseline and the candidate (pass + Inductor), checks correctness at every
tolerance level, times the variants interleaved, and reports each step as a JSON line on its
event file. The parent (:mod:`passagent.tools.evaluate`) reads that file, so whatever the pass
does to this process (crash, hang, exhaust memory) the steps already reported survive and the
step in progress tells which failure class applies.

Run as ``python -m passagent.tools.worker REQUEST.json``.
"""

from __future__ import annotations

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
from .passes import RuleLoadFailure, load_rules, pass_files
from .tasks import Subgraph, load_task
from .timing import TimingConfig, time_interleaved
from .tracebacks import one_line, root_cause, trim_traceback


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


class Worker:
    def __init__(self, request: dict[str, Any]):
        self.req = request
        self.events = EventWriter(request["events_path"])
        self.device = torch.device(request["device"])
        self.draws = int(request["draws"])
        self.seed = int(request["seed"])
        self.timing = TimingConfig(**request.get("timing", {}))
        self.rules: list[Any] | None = None
        self.rule_error: tuple[str, str] | None = None
        self.pass_path = request.get("pass_path")
        self.pass_files = [f for _n, f in pass_files(self.pass_path)] if self.pass_path else []

    # -- candidate pieces ------------------------------------------------------------------

    def _load_rules(self) -> None:
        if self.rules is not None or self.rule_error is not None:
            return
        try:
            self.rules = load_rules(self.pass_path, self.req["pass_digest"])
        except RuleLoadFailure as exc:
            cause = exc.__cause__ or exc
            tb = trim_traceback(cause, self.pass_files) if exc.__cause__ else None
            self.rule_error = (str(exc), tb or "")

    def run(self) -> None:
        torch._dynamo.config.suppress_errors = False  # a failing compile must never fall back to eager
        import torch._inductor.config as inductor_config

        inductor_config.fallback_random = True  # RNG ops match eager's stream in both baseline and candidate
        task = load_task(self.req["task_path"], self.req["task_id"])
        for index in self.req["subgraph_indices"]:
            self.events.emit("start", subgraph=index)
            result = self.evaluate_subgraph(index, task.subgraphs[index])
            if result is not None:
                self.events.emit("result", subgraph=index, **result)
            torch._dynamo.reset()
        self.events.emit("done", max_rss_kb=_max_rss_kb())

    def evaluate_subgraph(self, index: int, sg: Subgraph) -> dict[str, Any] | None:
        t_start = time.perf_counter()
        emit = lambda phase: self.events.emit("phase", subgraph=index, phase=phase)  # noqa: E731
        out: dict[str, Any] = {
            "degenerate_inputs": [a.name for a in sg.args if is_degenerate(a)],
            "matches": 0,
            "rules": [],
        }
        dev = self.device
        draws = [
            synthesize_inputs(sg, k, seed=self.seed, device=dev, degenerate_std=self.req["degenerate_std"])
            for k in range(self.draws)
        ]
        # 1. eager reference
        emit("eager")
        eager = build_module(sg, dev, f"eager_{index}")
        try:
            refs = [_call(eager, clone_inputs(d), self.seed) for d in draws]
            if dev.type == "cuda":
                torch.cuda.synchronize()
        except Exception as exc:  # the task itself is broken, not the pass
            self.events.emit(
                "task_error",
                subgraph=index,
                message=f"eager run of model.py failed on inputs synthesised from its metadata: {one_line(exc)}",
                traceback=trim_traceback(exc, [sg.path / "model.py"]),
            )
            return None
        same = [all(x) for x in zip(*[outputs_equal(refs[0], r) for r in refs[1:]])] if len(refs) > 1 else []
        out["low_signal"] = bool(same) and all(same)

        variants: dict[str, Any] = {"eager": eager}
        # 2. default Inductor baseline (its own error against eager is reported too)
        if self.req["need_inductor"].get(str(index), True):
            emit("inductor")
            inductor = torch.compile(build_module(sg, dev, f"inductor_{index}"), backend="inductor")
            try:
                inductor_outs = [_call(inductor, clone_inputs(d), self.seed) for d in draws]
                out["inductor_error"] = _error_stats(merge([compare_outputs(o, r) for o, r in zip(inductor_outs, refs)]))
                variants["inductor"] = inductor
            except Exception as exc:  # Inductor itself fails on this graph: report, keep going
                out["inductor_failure"] = one_line(exc)

        # 3. candidate = pass + Inductor
        emit("candidate_load")
        self._load_rules()
        if self.rule_error is not None:
            message, tb = self.rule_error
            out.update(failure_class="compile", message=f"the pass failed to load: {message}", traceback=tb or None)
            return self._finish(out, variants, draws, t_start, emit)
        from .backend import PassBackend

        backend = PassBackend(self.rules, on_phase=emit)  # type: ignore[arg-type]
        candidate = torch.compile(build_module(sg, dev, f"candidate_{index}"), backend=backend)
        import torch._inductor.config as inductor_config

        cand_outs = []
        with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
            try:
                cand_outs.append(_call(candidate, clone_inputs(draws[0]), self.seed))
            except Exception as exc:
                self._record_rules(out, backend)
                phase = backend.phase
                what = {"rewrite": "applying the pass", "inductor": "Inductor compiling the rewritten graph"}.get(phase or "", "running the candidate")
                out.update(
                    failure_class="compile" if phase else "runtime",
                    message=f"{what} raised {one_line(root_cause(exc))}",
                    traceback=trim_traceback(exc, self.pass_files),
                )
                return self._finish(out, variants, draws, t_start, emit)
        self._record_rules(out, backend)
        if backend.total_matches == 0:
            diags = backend.diagnostics()
            detail = "\n".join(f"[{rule}] {text}" for rule, text in diags.items())
            out.update(failure_class="compile", message=f"the pass matched nothing in this subgraph.\n{detail}".strip())
            return self._finish(out, variants, draws, t_start, emit)
        emit("candidate_run")
        try:
            for d in draws[1:]:
                cand_outs.append(_call(candidate, clone_inputs(d), self.seed))
            if dev.type == "cuda":
                torch.cuda.synchronize()
        except Exception as exc:
            out.update(failure_class="runtime", message=f"the candidate raised {one_line(root_cause(exc))}", traceback=trim_traceback(exc, self.pass_files))
            return self._finish(out, variants, draws, t_start, emit)
        emit("correctness")
        try:
            cmp = merge([compare_outputs(o, r) for o, r in zip(cand_outs, refs)])
        except OutputMismatch as exc:
            out.update(failure_class="runtime", message=f"output mismatch: {exc}")
            return self._finish(out, variants, draws, t_start, emit)
        out["candidate_error"] = _error_stats(cmp)
        if cmp.nonfinite:
            out.update(failure_class="runtime", message="the candidate produced NaN/Inf where the reference is finite")
            return self._finish(out, variants, draws, t_start, emit)
        if cmp.min_correct_t is None or cmp.min_correct_t > HEADLINE_LEVEL:
            where = "at no tolerance level" if cmp.min_correct_t is None else f"only from t={cmp.min_correct_t}"
            msg = f"wrong values: correct {where} (max abs error {cmp.max_abs:.3g}, max rel error {cmp.max_rel:.3g}, worst output {cmp.worst_output})"
            out.update(failure_class="accuracy", message=msg)
        elif cmp.min_correct_t is not None and cmp.min_correct_t > -10:
            out["failure_class"] = "accuracy"  # applies only below min_correct_t
        variants["candidate"] = candidate
        return self._finish(out, variants, draws, t_start, emit)

    def _record_rules(self, out: dict[str, Any], backend: Any) -> None:
        counts = backend.matches_by_rule()
        diags = backend.diagnostics()
        out["matches"] = backend.total_matches
        out["rules"] = [{"rule": r, "matches": n, "diagnostic": diags.get(r)} for r, n in counts.items()]

    def _finish(self, out: dict[str, Any], variants: dict[str, Any], draws: list[Any], t_start: float, emit: Any) -> dict[str, Any]:
        emit("timing")
        base = draws[0]
        try:
            # The same grad mode as the correctness calls: a different one would fail Dynamo's
            # guards and time a recompiled graph rather than the one that was checked.
            with torch.no_grad():
                stats = time_interleaved(
                    variants,
                    lambda: clone_inputs(base),
                    device=self.device,
                    config=self.timing,
                )
            out["times"] = {name: asdict(s) for name, s in stats.items()}
        except Exception as exc:
            if "candidate" in variants:
                out.update(failure_class="runtime", message=f"the candidate raised while being timed: {one_line(root_cause(exc))}", traceback=trim_traceback(exc, self.pass_files))
            out["times"] = {}
        out["wall_s"] = time.perf_counter() - t_start
        return out


def _max_rss_kb() -> int:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(own)


def _apply_memory_limit(limit_bytes: int | None) -> None:
    if limit_bytes:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        new = limit_bytes if hard == resource.RLIM_INFINITY else min(limit_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (new, hard))


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[1]).read_text())
    if request["device"] == "cpu":
        _apply_memory_limit(request.get("memory_limit_bytes"))
    Worker(request).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
