"""A cheap check of a pass before a full evaluation: static checks, matches, the rewritten graph,
and one comparison per output on one input draw.

``passagent check`` and the agent's ``check_pass`` tool call :func:`check_pass_on_task`. It
answers in seconds because nothing is timed: each subgraph is captured by Dynamo, the pass is
applied by the same backend an evaluation uses, Inductor compiles the rewritten graph as the
evaluation's candidate process compiles it, and the compiled candidate runs on one input draw
next to the eager reference, so its verdict is the evaluation's on that draw (in half precision
Inductor's fused kernels round differently from the rewritten graph run eagerly, and only the
compiled run says what the evaluation will). ``eager=True`` skips the compile and runs the
rewritten graph eagerly: faster, and exact about matching, not about rounding. What the check
cannot see (the timed calls, the integrity checks around timing, other draws, the held-out
shape) only the evaluation sees; a pass that checks clean can still fail there, but a pass that
fails here would fail the evaluation the same way.

The pass's code runs in a spawned child process (never here) with the evaluation worker's
confinement (resource limits, writes only to its folder, no network where the OS allows) and a
time limit; a pass the static checks refuse is not run at all.

In a sweep the check shares the device lease of evaluations (:mod:`..process.lease_gate`): given a gate,
the child starts, imports torch, loads the task and the pass, reports ``ready`` and waits; the
lease is taken for the runs on the device alone and released when it reports ``device_done``. A
pass that fails to load never takes the lease.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..tasks.loader import Task
from ..process.lease_gate import DEVICE_DONE_FILE, READY_FILE, LeaseGate, pinned_at_spawn, wait_for_go
from ..passes.rules import pass_digest, pass_files, source_files
from ..integrity.static_checks import Mode, check_pass
from ..measure.correctness import HEADLINE_LEVEL
from .divergence import Divergence

#: ``divergence_subgraph`` value: search the first subgraph whose candidate fails t=-5.
AUTO_SUBGRAPH = -1


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Finding(_Model):
    """One static-check violation: rule id, file name, line, message."""

    rule: str
    file: str
    line: int
    message: str


class OutputCheck(_Model):
    """One output of the rewritten graph against eager on the checked draw."""

    index: int
    shape: list[int] | None = None
    dtype: str | None = None
    problem: str | None = Field(None, description="shape/dtype/count mismatch or NaN/Inf: no level is correct")
    max_abs: float | None = None
    min_correct_t: int | None = Field(None, description="smallest tolerance level t it passes (SCORING.md); None: none")
    written_input: int | None = Field(None, description="this entry is graph input k, which eager writes in place "
                                                        "(compared like an output, as the evaluation does)")


class RuleCheck(_Model):
    """How one rule fared on one subgraph."""

    rule: str
    matches: int
    diagnostic: str | None = None
    notes: list[str] = []


class SubgraphCheck(_Model):
    """The check of one subgraph."""

    index: int
    name: str
    rules: list[RuleCheck] = []
    error: str | None = Field(None, description="what failed (applying the pass, running the rewritten graph)")
    traceback: str | None = None
    rewritten_fx: str | None = Field(None, description="the Dynamo FX graph after the pass (Python code)")
    no_change: bool = Field(False, description="the pass matched but the ATen ops are the same as without it")
    outputs: list[OutputCheck] = []
    post_grad: str | None = Field(None, description="with inductor=True: the candidate's post-grad ATen graph")
    kernels: list[dict[str, str]] = Field([], description="with inductor=True: the candidate's kernel launches "
                                                         "(name, kind, what each fuses; tools.inspection.ir.summarize_kernels)")
    kernel_code: dict[str, str] = Field({}, description="with inductor=True: each generated kernel's source, by name "
                                                        "(tools.inspection.ir.kernel_sources)")
    divergence: list[Divergence] = Field([], description="on the divergence subgraph: the first node where default "
                                                          "Inductor, and the candidate, leave the tolerance level (tools.inspection.divergence)")

    @property
    def matches(self) -> int:
        return sum(r.matches for r in self.rules)


class CheckReport(_Model):
    """What :func:`check_pass_on_task` found."""

    task_id: str
    pass_path: str
    pass_sha256: str
    device: str
    inductor_subgraph: int | None = Field(None, description="the subgraph also compiled by Inductor")
    divergence_subgraph: int | None = Field(None, description="the subgraph searched for the first diverging node")
    compiled: bool = Field(True, description="the rewritten graphs were compiled by Inductor (False: run eagerly)")
    findings: list[Finding] = Field([], description="static-check violations; the pass is not run when there are any")
    load_error: str | None = Field(None, description="the pass failed to import (with the file and line)")
    subgraphs: list[SubgraphCheck] = []
    error: str | None = Field(None, description="the check itself failed or timed out")
    wall_s: float = 0.0
    cpu_threads: int | None = Field(None, description="torch's intra-op threads in the check's process, as the evaluation sets them")


def check_pass_on_task(task: Task, pass_path: str | Path, *, device: str = "cpu", timeout_s: float = 300.0,
                       integrity_mode: str = "permissive", sandbox: bool = True,
                       subgraphs: list[int] | None = None, inductor_subgraph: int | None = None,
                       gate: LeaseGate | None = None, cpu_threads: int | None = 1,
                       divergence_subgraph: int | None = None, divergence_level: int | None = None,
                       cache_root: Path | None = None, cache_scope: str = "shared", eager: bool = False) -> CheckReport:
    """Check ``pass_path`` on ``task`` (every subgraph, or ``subgraphs``) without timing it.

    Args:
        device: where the rewritten graph runs (``cpu``, ``cuda``, ``cuda:N``).
        timeout_s: limit for the whole child process (seconds).
        integrity_mode: the static checks' mode (``permissive`` or ``strict``).
        sandbox: confine the child process as the evaluation worker is confined.
        cpu_threads: on the CPU, the child's thread pools (torch's intra-op threads, OpenMP), as
            an evaluation with ``EvalOptions(cpu_threads=...)`` sets them (default 1, as there), so
            the check compiles and runs the graph as the evaluation does; None: torch's default.
        eager: run each rewritten graph eagerly instead of compiling it with Inductor (faster;
            in half precision the verdict can differ from the evaluation's, module docstring).
        inductor_subgraph: on this subgraph, also report the candidate's post-grad graph and the
            kernels Inductor generates, with their source (compiled even with ``eager``).
        divergence_subgraph: on this subgraph, also find the first node of the graph whose value
            leaves tolerance level ``divergence_level`` against eager, for default Inductor and
            for the candidate (as the check runs it: compiled, or eagerly with ``eager``):
            :mod:`.divergence`; :data:`AUTO_SUBGRAPH` (-1): on the first subgraph whose candidate
            fails t=-5 (else the first checked). The report's ``divergence_subgraph`` names the
            one searched. Each compiled search costs up to ``1 + log2(nodes)`` Inductor compiles
            of a prefix of the graph.
        divergence_level: the level searched at (SCORING.md's t, -10..4); default: the strictest
            level some output of the candidate fails (see :func:`.divergence.default_level`), or
            t=-5 where every output passes every level.
        cache_root, cache_scope: the pass runs as an evaluation's candidate does, with the
            compiler cache of candidate scope ``cache_scope`` under ``cache_root`` (default
            :func:`..evaluation.baseline_cache.default_cache_root`): it can write that cache, never the clean
            processes' (:func:`..evaluation.evaluate.worker_environment`).
        gate: a device lease (:class:`..process.lease_gate.LeaseGate`) to take once the child has started
            and loaded the task and the pass, held while it runs on the device, released when it
            is done (or dies, or times out). The child runs on the pool's kind of device (its only
            device, or the leased one, named by the go line); ``device`` is then not used.

    Raises:
        PassLoadError: the pass path does not exist or its rule list is malformed.
    """
    from ..process.device_lease import pin_worker_device
    from ..evaluation.evaluate import worker_environment
    from ..process.runner import run_child

    t0 = time.perf_counter()
    pass_path = Path(pass_path).resolve()
    pass_files(pass_path)
    report = CheckReport(task_id=task.id, pass_path=str(pass_path), pass_sha256=pass_digest(pass_path), device=device,
                         inductor_subgraph=inductor_subgraph, compiled=not eager)
    report.findings = [Finding(rule=v.rule, file=Path(v.path).name, line=v.line, message=v.message)
                       for v in check_pass(pass_path, Mode(integrity_mode))]
    if report.findings:
        report.wall_s = time.perf_counter() - t0
        return report
    indices = subgraphs if subgraphs is not None else list(range(len(task.subgraphs)))
    with tempfile.TemporaryDirectory(prefix="passagent-check-") as tmp:
        workdir = Path(tmp)
        from ..evaluation.baseline_cache import default_cache_root

        if gate is not None:
            from ..process.device_lease import leased_device

            # The device is known now only for a one-device pool; otherwise the go line names it.
            device = leased_device(pinned_at_spawn(gate.pool) or gate.pool[0])
        threads = cpu_threads if device.split(":")[0] == "cpu" else None
        env = worker_environment(Path(cache_root or default_cache_root()), workdir, threads=threads, scope=cache_scope)
        spawn_env = dict(env)
        child_device = pin_worker_device(device, env)  # cuda:N: the child sees GPU N alone
        request = {"task_path": str(task.path), "task_id": task.id, "pass_path": str(pass_path),
                   "pass_digest": report.pass_sha256, "device": child_device, "indices": indices, "inductor_subgraph": inductor_subgraph,
                   "divergence_subgraph": divergence_subgraph, "divergence_level": divergence_level, "eager": eager,
                   "out": str(workdir / "check.json"), "handshake": gate is not None, "cpu_threads": threads,
                   "sandbox": {"writable_dirs": [str(workdir), env["TORCHINDUCTOR_CACHE_DIR"]],
                               "cpu_seconds": int(timeout_s * 2) + 10} if sandbox else None}
        Path(env["TORCHINDUCTOR_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
        (workdir / "request.json").write_text(json.dumps(request))
        argv = [sys.executable, "-m", "passagent.tools.inspection.check", str(workdir / "request.json")]
        run = run_child(argv, cwd=workdir, env=env, timeout_s=timeout_s, gate=gate, lease_steps=("check_start", "check"),
                        spawn_env=spawn_env, isolate_network=sandbox)
        if run.timed_out:
            report.error = f"the check took longer than {timeout_s:.0f} s (a pass that hangs also hangs the evaluation)"
        out = workdir / "check.json"
        if out.is_file():
            partial = CheckReport.model_validate_json(out.read_text())
            report.load_error, report.subgraphs, report.cpu_threads = partial.load_error, partial.subgraphs, partial.cpu_threads
            report.divergence_subgraph = partial.divergence_subgraph
        elif report.error is None:
            report.error = f"the check process exited with status {run.returncode}:\n{run.tail()}"
    report.wall_s = time.perf_counter() - t0
    return report


# --- the child process -----------------------------------------------------------------------


def _check_subgraph(index: int, sg: Any, rules: list[Any], device: Any, files: list[Path],
                    inductor: bool = False, keep: dict[str, Any] | None = None,
                    compile_: bool = True, digest: str | None = None) -> SubgraphCheck:
    """Check one subgraph. ``keep``: a dict that receives ``captured`` (the first captured graph
    before the pass, the rewritten one and its inputs), ``graphs`` and ``compiled``, for
    :func:`_divergences`."""
    import torch
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    from .ir import kernel_sources, summarize_kernels

    from ..passes.backend import PassBackend
    from ..measure.correctness import OutputMismatch, compare_outputs, flatten_outputs
    from .divergence import copy_module, tag_origins
    from ..tasks.inputs import clone_inputs, synthesize_inputs
    from ..process.tracebacks import one_line, root_cause, trim_traceback
    from ..evaluation.steps import build_module

    result = SubgraphCheck(index=index, name=sg.name)
    args = synthesize_inputs(sg, 0, device=device)
    with torch.no_grad():
        torch.manual_seed(0)
        eager_inputs = clone_inputs(args)
        want = build_module(sg, device, f"check_eager_{index}")(*eager_inputs)
    # The digest tags the compile as the evaluation's candidate process tags it, so Inductor's
    # FX-graph cache never serves a graph compiled for another version of the pass.
    backend = PassBackend(rules, use_inductor=inductor or compile_, files=[str(f) for f in files],
                          cache_digest=digest)
    captured: list[tuple[Any, Any, list[Any]]] = []

    def recording_backend(gm: Any, example_inputs: list[Any]) -> Any:
        # The original graph (nodes marked by name) and its inputs, kept for the divergence search.
        tag_origins(gm)
        captured.append((copy_module(gm), gm, clone_inputs(list(example_inputs))))
        return backend(gm, example_inputs)

    post_grad: list[str] = []
    candidate_inputs = clone_inputs(args)
    torch._dynamo.reset()
    try:
        with torch.no_grad():
            torch.manual_seed(0)
            compiled = torch.compile(build_module(sg, device, f"check_{index}"),
                                     backend=recording_backend if keep is not None else backend)
            if inductor:
                patches = {"post_grad_custom_post_pass": lambda g: post_grad.append(g.python_code("self").src.strip()),
                           "force_disable_caches": True, "fallback_random": True}
                with inductor_config.patch(patches):
                    got, codes = run_and_get_code(compiled, *candidate_inputs)
                result.kernels = [k for code in codes for k in summarize_kernels(code)]
                result.kernel_code = {n: src for code in codes for n, src in kernel_sources(code, max_lines=None).items()}
                result.post_grad = "\n\n".join(post_grad) or None
            else:
                got = compiled(*candidate_inputs)
    except Exception as exc:  # noqa: BLE001 - reported to the author
        what = {"rewrite": "applying the pass", "inductor": "Inductor compiling the rewritten graph"}.get(
            backend.phase or "", "running the rewritten graph")
        result.error = f"{what} raised {one_line(root_cause(exc))}"
        result.traceback = trim_traceback(exc, files) or None
        got = None
    _rules(result, backend)
    result.rewritten_fx = "\n\n".join(code.strip() for code in backend.graphs_after) or None
    result.no_change = backend.no_change
    if got is None:
        return result
    cand, ref = flatten_outputs(got), flatten_outputs(want)
    for k, r in enumerate(ref):
        c = cand[k] if k < len(cand) else None
        out = OutputCheck(index=k)
        if isinstance(c, torch.Tensor):
            out.shape, out.dtype = list(c.shape), str(c.dtype).removeprefix("torch.")
        try:
            cmp = compare_outputs([c], [r])
            out.max_abs, out.min_correct_t = cmp.max_abs, cmp.min_correct_t
            if cmp.nonfinite:
                out.problem = "NaN/Inf where the reference is finite"
        except OutputMismatch as exc:
            out.problem = str(exc)
        result.outputs.append(out)
    if len(cand) != len(ref):
        result.outputs.append(OutputCheck(index=len(ref), problem=f"the rewritten graph returns {len(cand)} outputs, eager {len(ref)}"))
    # Inputs eager writes in place are compared like outputs, as the evaluation compares them.
    for k, (before, e, c) in enumerate(zip(args, eager_inputs, candidate_inputs)):
        if not isinstance(before, torch.Tensor) or _same(before, e):
            continue
        assert isinstance(c, torch.Tensor)  # the candidate's copy of a tensor input
        out = OutputCheck(index=len(result.outputs), written_input=k, shape=list(c.shape),
                          dtype=str(c.dtype).removeprefix("torch."))
        cmp = compare_outputs([c], [e])
        out.max_abs, out.min_correct_t = cmp.max_abs, cmp.min_correct_t
        result.outputs.append(out)
    if keep is not None and captured:
        keep.update(captured=captured[0], graphs=len(captured), compiled=inductor or compile_)
    return result


def _divergences(captured: tuple[Any, Any, list[Any]], result: SubgraphCheck, inductor: bool, level: int | None,
                 graphs: int) -> list[Divergence]:
    """Default Inductor's and the candidate's first diverging node on the first captured graph."""
    import torch._inductor.config as inductor_config

    from .divergence import compiled_divergence, default_level, eager_divergence, node_values
    from ..tasks.inputs import clone_inputs
    from ..process.tracebacks import one_line, root_cause

    original, rewritten, inputs = captured
    if level is None:
        level = default_level([None if o.problem else o.min_correct_t for o in result.outputs]) or HEADLINE_LEVEL
    out: list[Divergence] = []
    note = f"the first of {graphs} captured graphs (graph breaks)" if graphs > 1 else None
    with inductor_config.patch({"force_disable_caches": True, "fallback_random": True}):
        reference = node_values(original, clone_inputs(inputs))
        searches = [("inductor", original), ("candidate" if inductor else "candidate_eager", rewritten)]
        for computation, gm in searches:
            try:
                if computation == "candidate_eager":
                    d = eager_divergence(gm, inputs, reference, level, clone_inputs)
                else:
                    d = compiled_divergence(gm, inputs, reference, level, clone_inputs, computation=computation)
            except Exception as exc:  # noqa: BLE001 - the rest of the check stands
                d = Divergence(computation=computation, level=level, note=f"the search failed: {one_line(root_cause(exc))}")
            if note:
                d.note = f"{d.note}; {note}" if d.note else note
            out.append(d)
    return out


def _same(a: Any, b: Any) -> bool:
    """Whether two tensors hold the same values (NaN equal to NaN)."""
    import torch

    return a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(a, b) or (
        a.is_floating_point() and torch.equal(torch.nan_to_num(a, nan=0.0), torch.nan_to_num(b, nan=0.0))
        and torch.equal(a.isnan(), b.isnan())))


def _fails_headline(result: SubgraphCheck) -> bool:
    """Whether a checked subgraph's candidate is wrong at t=-5 (or has no comparable output)."""
    return not result.outputs or any(o.problem or o.min_correct_t is None or o.min_correct_t > HEADLINE_LEVEL
                                     for o in result.outputs)


def _rules(result: SubgraphCheck, backend: Any) -> None:
    diags, notes = backend.diagnostics(), backend.notes()
    result.rules = [RuleCheck(rule=r, matches=n, diagnostic=diags.get(r), notes=notes.get(r, []))
                    for r, n in backend.matches_by_rule().items()]


def main(argv: list[str]) -> int:
    """``python -m passagent.tools.inspection.check REQUEST.json``: confine, check, write the report JSON."""
    request = json.loads(Path(argv[1]).read_text())
    box = request.get("sandbox")
    if box:  # before torch is imported, as the evaluation worker does (Landlock needs one thread)
        from ..process.sandbox import apply_resource_limits, restrict_writes

        apply_resource_limits(cpu_seconds=box["cpu_seconds"])
        restrict_writes([Path(p) for p in box["writable_dirs"]])
    import torch

    from ..passes.rules import RuleLoadFailure, load_rules
    from ..tasks.loader import load_task
    from ..process.tracebacks import trim_traceback

    from ..evaluation.serve import settle_process

    # The evaluation's processes' settings (threads, Dynamo, Inductor's random numbers), so the
    # check's verdicts are the evaluation's.
    settle_process(torch.device(request["device"]).type, request.get("cpu_threads"))
    task = load_task(request["task_path"], request["task_id"])
    report = CheckReport(task_id=task.id, pass_path=request["pass_path"], pass_sha256=request["pass_digest"],
                         device=request["device"], cpu_threads=torch.get_num_threads())
    files = source_files(request["pass_path"])
    try:
        rules = load_rules(request["pass_path"], request["pass_digest"])
    except RuleLoadFailure as exc:
        tb = trim_traceback(exc.__cause__, files) if exc.__cause__ else None
        report.load_error = str(exc) + (f"\n{tb}" if tb else "")
        Path(request["out"]).write_text(report.model_dump_json())
        return 0
    device = torch.device(request["device"])
    workdir = Path(request["out"]).parent
    if request.get("handshake"):
        (workdir / READY_FILE).write_text("")
        go = wait_for_go(sys.stdin)
        if go is None:  # the parent is gone or gave up: nothing may run on the device
            return 0
        if go.get("cuda_visible_devices") is not None:
            # Read by CUDA when it starts, which nothing in this process has done yet.
            os.environ["CUDA_VISIBLE_DEVICES"] = str(go["cuda_visible_devices"])
        device = torch.device(go.get("device", request["device"]))
    wanted, level = request.get("divergence_subgraph"), request.get("divergence_level")
    fallback: tuple[SubgraphCheck, dict[str, Any]] | None = None
    for index in request["indices"]:
        keep: dict[str, Any] | None = {} if wanted in (index, AUTO_SUBGRAPH) and report.divergence_subgraph is None else None
        result = _check_subgraph(index, task.subgraphs[index], rules, device, files,
                                 index == request.get("inductor_subgraph"), keep,
                                 compile_=not request.get("eager"), digest=request["pass_digest"])
        report.subgraphs.append(result)
        if keep and (wanted == index or _fails_headline(result)):
            result.divergence = _divergences(keep["captured"], result, keep["compiled"], level, keep["graphs"])
            report.divergence_subgraph = index
        elif keep and fallback is None:
            fallback = (result, keep)
        Path(request["out"]).write_text(report.model_dump_json())  # what is done survives a crash later
    if wanted == AUTO_SUBGRAPH and report.divergence_subgraph is None and fallback is not None:
        result, keep = fallback
        result.divergence = _divergences(keep["captured"], result, keep["compiled"], level, keep["graphs"])
        report.divergence_subgraph = result.index
    Path(request["out"]).write_text(report.model_dump_json())
    if request.get("handshake"):
        (workdir / DEVICE_DONE_FILE).write_text("")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
