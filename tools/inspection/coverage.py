"""A pass's reach: on how many full model graphs it matches, how often, and what it gains there.

``passagent coverage PASS... --graphs DIR`` runs in two stages, both in the harness's confined
worker (the passes' code never runs in this process):

1. **match** (:func:`match_passes`): every graph under ``DIR`` is captured once by Dynamo and
   each pass is applied, separately, to a copy of every captured FX graph; no Inductor, no
   timing, so a corpus of full models costs one capture each;
2. **measure** (:func:`coverage`): where a pass matched, ``passagent eval``'s evaluation of that
   pass on that whole graph (correctness at every tolerance level, interleaved timing against
   eager and default Inductor, integrity checks).

A pass is flagged ``overfit`` when it matches no graph of the corpus (nothing outside the task
it was found on: keep that task's own graphs out of the corpus), or when it matched but was
wrong on every graph where it did (its rule relies on something only its task holds, such as
a value the task's graph never returns).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..errors import PassLoadError
from ..evaluation.evaluate import (
    EvalOptions,
    _physical_memory,
    default_cache_root,
    evaluate_pass,
    worker_environment,
    worker_sandbox,
    worker_threads,
)
from ..process.isolation import run_workers
from ..passes.rules import pass_digest, pass_files
from ..evaluation.schema import EvalResult
from ..integrity.static_checks import Mode, check_pass
from ..tasks.loader import Task, load_task


@dataclass
class GraphMatch:
    """One pass on one graph (match stage, then the evaluation where it matched).

    Attributes:
        graph: the sample's name within the corpus. source: its model.
        matches: matches summed over the graph's Dynamo graphs and the pass's rules.
        rules: per rule, ``{"rule", "matches", "sites"}``.
        error: why no verdict (capture failed, the pass failed to load or apply, static checks).
        result: the evaluation on the whole graph (None where not measured).
    """

    graph: str
    source: str
    matches: int = 0
    rules: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    result: EvalResult | None = None

    def speedup(self, baseline: str) -> float | None:
        """Whole-graph speedup against ``eager`` or ``inductor`` where correct at t=-5, else None."""
        if self.result is None:
            return None
        sg = self.result.subgraphs[0]
        if sg.status != "correct":
            return None
        return sg.speedup_vs_eager if baseline == "eager" else sg.speedup_vs_inductor


@dataclass
class PassCoverage:
    """The reach of one pass over a corpus.

    Attributes:
        pass_path: the pass. graphs: every graph of the corpus with a verdict for this pass.
    """

    pass_path: str
    graphs: list[GraphMatch]

    @property
    def matched(self) -> list[GraphMatch]:
        return [g for g in self.graphs if g.matches > 0]

    @property
    def total_matches(self) -> int:
        return sum(g.matches for g in self.graphs)

    @property
    def overfit(self) -> str | None:
        """Why the pass does not carry beyond its task, or None: ``"no match"`` (it matched none
        of the corpus's graphs) or ``"wrong where matched"`` (it matched, was measured, and was
        correct at t=-5 on none of those graphs: its rule assumes something only its task holds)."""
        if not self.matched:
            return "no match"
        measured = [g for g in self.matched if g.result is not None]
        if measured and not any(g.result.subgraphs[0].status == "correct" for g in measured):  # type: ignore[union-attr]
            return "wrong where matched"
        return None

    def geomean_speedup(self, baseline: str) -> float | None:
        """Geometric mean of the whole-graph speedups where it matched and was correct (None if none)."""
        import math

        xs = [s for g in self.matched if (s := g.speedup(baseline))]
        return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def match_passes(task: Task, passes: Sequence[str | Path], options: EvalOptions | None = None,
                 indices: Sequence[int] | None = None) -> dict[int, dict[str, Any]]:
    """Stage 1: where each pass matches in each subgraph of ``task`` (see the module docstring).

    Args:
        task: the corpus (a folder of GraphNet samples loads as one subgraph per sample).
        passes: pass files or ``pass_dir/`` folders, each applied on its own.
        options: device, seed, timeout, sandbox, cache root and threads are used.
        indices: subgraphs to look at (default: all).

    Returns:
        Per subgraph index: ``{"graphs", "nodes", "passes": {resolved pass path: {"matches",
        "rules", "error"}}}``, or ``{"error": message}`` where capturing the graph failed or its
        worker died. Passes the static checks refuse get that as their error, and never run.

    Raises:
        PassLoadError: a pass path does not exist or its rule list is malformed.
    """
    options = options or EvalOptions()
    paths = [str(Path(p).resolve()) for p in passes]
    refused: dict[str, str] = {}
    runnable = []
    for p in paths:
        pass_files(p)
        violations = check_pass(Path(p), Mode(options.integrity_mode)) if options.static_checks else []
        if violations:
            v = violations[0]
            refused[p] = f"refused by the static checks: {Path(v.path).name}:{v.line} [{v.rule}] {v.message}"
        else:
            runnable.append(p)
    idx = list(indices if indices is not None else range(len(task.subgraphs)))
    out: dict[int, dict[str, Any]] = {}
    if runnable:
        out = _run_match_worker(task, runnable, options, idx)
    for i in idx:
        entry = out.setdefault(i, {"graphs": 0, "nodes": 0, "passes": {}})
        if "error" not in entry:
            for p, msg in refused.items():
                entry["passes"][p] = {"matches": 0, "rules": [], "error": msg}
    return out


def _run_match_worker(task: Task, paths: list[str], options: EvalOptions, idx: list[int]) -> dict[int, dict[str, Any]]:
    cache_root = Path(options.cache_root or default_cache_root())
    request: dict[str, Any] = {
        "mode": "match", "task_path": str(task.path), "task_id": task.id, "pass_paths": paths,
        "pass_digests": [pass_digest(p) for p in paths],
        "pass_files": [str(f) for p in paths for _n, f in pass_files(p)],
        "device": options.device, "seed": options.seed, "degenerate_std": options.degenerate_std,
    }
    with tempfile.TemporaryDirectory(prefix="passagent-match-") as tmp:
        workdir = Path(tmp)
        env = worker_environment(cache_root, workdir, scope=options.candidate_cache_scope)
        if threads := worker_threads(options):
            for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
                env[var] = str(threads)
            request["cpu_threads"] = threads
        if options.sandbox:
            mem = options.memory_limit_bytes if options.memory_limit_bytes is not None else int(0.75 * _physical_memory())
            request["sandbox"] = worker_sandbox(options, env, workdir, len(idx), mem)
        run = run_workers(request, idx, workdir, options.timeout_s, env, isolate_network=options.sandbox)
    out: dict[int, dict[str, Any]] = {}
    for i in idx:
        if i in run.results:
            ev = run.results[i]
            out[i] = {"graphs": ev["graphs"], "nodes": ev["nodes"], "passes": ev["passes"]}
        elif i in run.task_errors:
            out[i] = {"error": run.task_errors[i]["message"]}
        elif i in run.failed:
            cls, msg, _tail = run.failed[i]
            out[i] = {"error": f"{cls}: {msg}"}
    return out


def coverage(graphs: str | Path, passes: Sequence[str | Path], options: EvalOptions | None = None, *,
             measure: bool = True, progress: Callable[[str], None] | None = None) -> list[PassCoverage]:
    """Stage 1 over every graph under ``graphs``, then stage 2 where a pass matched.

    Args:
        graphs: a folder of GraphNet samples (or any task folder).
        passes: pass files or ``pass_dir/`` folders; each is measured on its own.
        options: the evaluation options of stage 2 (and device/seed/sandbox of stage 1).
        measure: False stops after stage 1 (no speedups).
        progress: called with a one-line description before each step.

    Returns:
        One :class:`PassCoverage` per pass, in the order given.

    Raises:
        PassLoadError: no pass given, or a pass path is broken. TaskError: the folder holds no sample.
    """
    if not passes:
        raise PassLoadError("no pass given: name at least one pass file or pass_dir/")
    options = options or EvalOptions()
    say = progress or (lambda _msg: None)
    task = load_task(graphs)
    say(f"matching {len(passes)} pass(es) on {len(task.subgraphs)} graph(s)")
    found = match_passes(task, passes, options)
    report = []
    for p in passes:
        key = str(Path(p).resolve())
        rows = []
        for i, sg in enumerate(task.subgraphs):
            entry = found.get(i, {"error": "no result"})
            if "error" in entry:
                rows.append(GraphMatch(sg.name, sg.source, error=entry["error"]))
                continue
            rec = entry["passes"].get(key, {"matches": 0, "rules": [], "error": "not run"})
            g = GraphMatch(sg.name, sg.source, rec["matches"], rec["rules"], rec.get("error"))
            if measure and g.matches > 0 and not g.error:
                say(f"measuring {Path(p).name} on {sg.name} ({g.matches} matches)")
                g.result = evaluate_pass(load_task(sg.path), p, options)
            rows.append(g)
        report.append(PassCoverage(str(p), rows))
    return report
