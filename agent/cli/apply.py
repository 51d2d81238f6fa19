"""``passagent apply``, ``export-pass`` and ``coverage``: from a found pass to a faster model.

Registered on the main app by :func:`register`; each command imports torch only when it runs.
Exit codes (docs/cli.md): ``apply`` as ``eval`` (0 correct on the graph, 1 the pass failed on it
or does not load, 3 an integrity defence fired); all three 2 on bad input.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Callable, List, Optional

import typer
from rich.console import Console
from rich.table import Table

from .support import check_device, err, fail, show_eval_result


def _x(v: Optional[float]) -> str:
    return f"{v:.3f}x" if v else "-"


def _options(device: str, timing_budget: Optional[float], cache_dir: Optional[Path], cpu_threads: int,
             timeout: float) -> Any:
    from ...tools.evaluation.evaluate import EvalOptions

    check_device(device)
    try:
        return EvalOptions(device=device, timing_budget_s=timing_budget, cache_root=cache_dir,
                           cpu_threads=cpu_threads or None, timeout_s=timeout)
    except ValueError as exc:
        fail(exc)


def apply_table(result: Any) -> Table:
    """Per graph and rule: matches and where (graph node, model line); then the graph's verdict."""
    t = Table(show_edge=False)
    for col in ("graph", "rule", "matches", "where (first 3)"):
        t.add_column(col, justify="right" if col == "matches" else "left")
    for s in result.subgraphs:
        for r in s.rules or []:
            t.add_row(s.name, r.rule, str(r.matches), "; ".join(r.sites[:3]) or "-")
    return t


def apply_cmd(
    passes: List[Path] = typer.Argument(..., help="Pass files or pass_dir/ folders, applied in this order."),
    model_graph: str = typer.Option(..., "--model-graph", "-g", help="A whole-model graph: GraphNet sample folder, task folder or built-in id."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per graph (eval's default when unset)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
    cpu_threads: int = typer.Option(1, min=0, help="Threads for CPU timing (0: torch's default)."),
    timeout: float = typer.Option(600.0, help="Per-graph time limit in the worker (seconds); whole models compile slowly."),
    json_out: bool = typer.Option(False, "--json", help="Print the evaluation's JSON result."),
) -> None:
    """Apply passes to a whole model graph: where each rule matched, correctness as in eval, speedup vs eager and Inductor.

    Exit codes (docs/cli.md): 0 the outputs are correct at t=-5; 1 the pass failed on the graph (or
    does not load); 2 bad input; 3 an integrity defence fired."""
    from ...tools.passes.compose import composed_pass_dir
    from ...tools.evaluation.evaluate import evaluate_pass
    from ...tools.tasks.loader import load_task
    from ..run.render import load_failure, print_renderable

    options = _options(device, timing_budget, cache_dir, cpu_threads, timeout)
    task = load_task(model_graph)
    with tempfile.TemporaryDirectory(prefix="passagent-apply-") as tmp:
        combined = composed_pass_dir(passes, Path(tmp) / "composed")
        with Console(stderr=True).status(f"applying {len(passes)} pass(es) to {task.id}..."):
            result = evaluate_pass(task, combined, options)
    if not json_out and load_failure(result) is None:
        print_renderable(apply_table(result))
    show_eval_result(result, json_out)


def export_pass_cmd(
    passes: List[Path] = typer.Argument(..., help="Pass files or pass_dir/ folders (several are composed in this order)."),
    as_: str = typer.Option("inductor", "--as", help="Export format: inductor (a pre-grad CustomGraphPass package)."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write; its name is the package name."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing folder."),
) -> None:
    """Write passes as an Inductor CustomGraphPass (uuid from its source) usable without passagent's backend."""
    if as_ != "inductor":
        fail(f"--as must be 'inductor', not {as_!r}")
    from ...tools.passes.inductor_export import export_inductor
    from ...tools.passes.rules import source_load_error

    for path in passes:  # a package of a pass that cannot load would fail where it is imported
        if (unloadable := source_load_error(path)) is not None:
            fail(f"{path}: the pass does not load: {unloadable[0]}; nothing was written")

    written = export_inductor(list(passes), out, overwrite=overwrite)
    Console().print(
        f"wrote {written}/ (import it from {written.parent}):\n"
        f"    from {written.name} import make_pass\n"
        f'    torch.compile(model, options={{"pre_grad_custom_pass": [make_pass()]}})', highlight=False, markup=False)


def coverage_table(report: list[Any]) -> Table:
    """Per pass: graphs matched, matches, whole-graph speedups where matched, overfit flag."""
    t = Table(show_edge=False)
    for col in ("pass", "graphs matched", "matches", "correct", "vs eager (geomean)", "vs Inductor (geomean)",
                "overfit", "errors"):
        t.add_column(col, justify="left" if col in ("pass", "overfit") else "right")
    for pc in report:
        measured = [g for g in pc.matched if g.result is not None]
        correct = sum(1 for g in measured if g.result.subgraphs[0].status == "correct")
        t.add_row(Path(pc.pass_path).name, f"{len(pc.matched)}/{len(pc.graphs)}", str(pc.total_matches),
                  f"{correct}/{len(measured)}" if measured else "-", _x(pc.geomean_speedup("eager")),
                  _x(pc.geomean_speedup("inductor")), f"yes ({pc.overfit})" if pc.overfit else "no",
                  str(sum(1 for g in pc.graphs if g.error)))
    return t


def matched_table(report: list[Any]) -> Table:
    """One row per (pass, graph) where the pass matched."""
    t = Table(show_edge=False)
    for col in ("pass", "graph", "matches", "status", "vs eager", "vs Inductor", "where (first 2)"):
        t.add_column(col)
    for pc in report:
        for g in pc.matched:
            sg = g.result.subgraphs[0] if g.result else None
            sites = [s for r in g.rules for s in r.get("sites", [])]
            t.add_row(Path(pc.pass_path).name, g.graph, str(g.matches), sg.status if sg else "-",
                      _x(sg.speedup_vs_eager if sg else None), _x(sg.speedup_vs_inductor if sg else None),
                      "; ".join(sites[:2]) or "-")
    return t


def coverage_cmd(
    passes: List[Path] = typer.Argument(..., help="Pass files or pass_dir/ folders, each measured on its own."),
    graphs: Path = typer.Option(..., "--graphs", help="Folder of whole-model GraphNet samples (e.g. shared/data/graphnet)."),
    measure: bool = typer.Option(True, "--measure/--match-only", help="Evaluate each pass on the graphs it matched."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per graph."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root."),
    cpu_threads: int = typer.Option(1, min=0, help="Threads for CPU timing (0: torch's default)."),
    timeout: float = typer.Option(600.0, help="Per-graph time limit in the worker (seconds)."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the full report (per graph) as JSON here."),
) -> None:
    """Reach of passes over many full graphs: graphs matched, matches, speedup where matched, overfit flag."""
    from ...tools.inspection.coverage import coverage

    from ...tools.passes.rules import pass_files

    if not graphs.is_dir():
        fail(f"--graphs {graphs}: no such folder")
    for path in passes:  # a missing pass: one line before any graph is read
        pass_files(path)
    options = _options(device, timing_budget, cache_dir, cpu_threads, timeout)
    say: Callable[[str], None] = lambda msg: err.print(f"[dim]{msg}[/dim]", highlight=False)  # noqa: E731
    report = coverage(graphs, passes, options, measure=measure, progress=say)
    from ..run.render import print_renderable

    print_renderable(coverage_table(report))
    if any(pc.matched for pc in report):
        print_renderable(matched_table(report))
    if json_out:
        json_out.write_text(_report_json(report))


def _report_json(report: list[Any]) -> str:
    import json

    out = []
    for pc in report:
        out.append({"pass": pc.pass_path, "overfit": pc.overfit, "graphs_matched": len(pc.matched),
                    "matches": pc.total_matches, "graphs": [
            {"graph": g.graph, "source": g.source, "matches": g.matches, "rules": g.rules, "error": g.error,
             "result": g.result.model_dump(mode="json") if g.result else None} for g in pc.graphs]})
    return json.dumps(out, indent=1) + "\n"


def register(app: typer.Typer) -> None:
    """Add the three commands to ``app``."""
    app.command("apply")(apply_cmd)
    app.command("export-pass")(export_pass_cmd)
    app.command("coverage")(coverage_cmd)
