"""The ``passagent`` command line (Typer + Rich).

Commands import what they need when they run, so ``passagent eval`` and ``passagent tasks``
work on a machine that has only the harness's dependencies (no LangGraph, no model SDKs).
Every command exits with a code of :class:`~passagent.agent.exit_codes.ExitCode` (``docs/cli.md``);
:class:`~passagent.agent.cli.support.ContractGroup` around them all turns bad input into one line
(2), an interruption into 130 with child processes stopped, and a bug into one line naming the
file that holds its traceback (70).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from .support import ContractGroup, check_device, err, fail, show_eval_result
from ..exit_codes import ExitCode

app = typer.Typer(
    cls=ContractGroup,
    name="passagent",
    help="Language models write graph-compiler passes for PyTorch; the harness checks and scores them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
tasks_app = typer.Typer(help="Browse and inspect tasks.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")


def _add_bench_app() -> None:
    from ...bench.cli import bench_app  # imports only typer and rich at load time

    app.add_typer(bench_app, name="bench")


_add_bench_app()


def _version(value: bool) -> None:
    if value:
        import torch

        from ... import __version__

        typer.echo(f"passagent {__version__} (torch {torch.__version__})")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Language models write graph-compiler passes for PyTorch; the harness checks and scores them."""

# Bad input raised as PassagentError anywhere in a command is printed in one line with its exit
# code by ContractGroup; commands raise or call fail() and never print an error themselves.


@tasks_app.command("show")
def tasks_show(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id (task_042)."),
    code: bool = typer.Option(False, "--code", help="Also print each subgraph's code (model.py): the graph a pattern must match, written as Dynamo captured it."),
    subgraph: Optional[int] = typer.Option(None, "--subgraph", "-s", min=0, help="Only this subgraph (its index, as in graphs/N)."),
) -> None:
    """Print a task's subgraphs: argument shapes, dtypes, recorded statistics, operator sequence (and code)."""
    from ...tools.tasks.loader import load_task
    from ..run.render import print_renderable, task_table

    loaded = load_task(task)
    if subgraph is not None:
        if subgraph >= len(loaded.subgraphs):
            fail(f"{loaded.id} has {len(loaded.subgraphs)} subgraph(s): --subgraph must be 0..{len(loaded.subgraphs) - 1}")
        from dataclasses import replace

        count = len(loaded.subgraphs)
        loaded = replace(loaded, subgraphs=(loaded.subgraphs[subgraph],))
        print_renderable(task_table(loaded, code=code, shown_of=(subgraph, count)))
        return
    print_renderable(task_table(loaded, code=code))


@tasks_app.command("list")
def tasks_list_cmd(
    category: Optional[str] = typer.Option(None, help="fusible, typical or sole."),
    op: Optional[str] = typer.Option(None, help="Only tasks whose operator sequence contains this operator (substring)."),
) -> None:
    """List the built-in tasks: id, category, subgraph count, operators, source models, dtypes, Inductor speedup."""
    from ...bench.cli import tasks_list
    from ...tools.tasks.builtin import load_manifest

    categories = sorted({r["category"] for r in load_manifest()})
    if category is not None and category not in categories:
        fail(f"unknown category {category!r}; the categories are {', '.join(categories)}")
    tasks_list(category, op)


@app.command("eval")
def eval_cmd(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id."),
    pass_path: Path = typer.Option(..., "--pass", "-p", help="Pass file, or a PassNet pass_dir/."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    baseline: str = typer.Option("eager", help="What the score's speedups are against: eager or inductor."),
    json_out: bool = typer.Option(False, "--json", help="Print the versioned JSON result instead of tables."),
    draws: int = typer.Option(3, min=1, help="Fresh input draws checked for correctness."),
    seed: int = typer.Option(0, help="Seed of input draw 0 (draw k uses seed+k)."),
    timeout: float = typer.Option(300.0, help="Time limit of each step of a subgraph in the evaluation's processes (seconds)."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per subgraph (default: 0.5 on the CPU; on CUDA at most 1.5, stopping once each median is known to +-0.5%)."),
    slowdown_penalty: float = typer.Option(0.0, help="p in r(s)=s^(p+1) for slowdowns (SCORING.md)."),
    failure_penalty: float = typer.Option(0.1, help="b, the score of a failed subgraph (SCORING.md)."),
    degenerate_std: float = typer.Option(1.0, help="std drawn for float inputs whose recorded std is 0."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Remeasure baselines instead of using the cache."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
    integrity_mode: str = typer.Option("permissive", help="permissive, or strict (PassNet's: replacements may only allocate and call Triton)."),
    cpu_threads: int = typer.Option(1, min=0, help="Threads for CPU evaluations (0: torch's default). Single-threaded timings stay meaningful on a shared machine."),
    profile: bool = typer.Option(False, "--profile", help="Also profile Inductor and the candidate per subgraph (kernel tables with times)."),
    reuse_inductor_time: bool = typer.Option(False, "--reuse-inductor-time", help="Take Inductor's time from the baseline cache (rescaled, marked *) instead of timing it beside the candidate: faster, but the candidate is then timed with different neighbours (see README)."),
    time_statistic: str = typer.Option("paired", help="How speedups are estimated: paired (median of per-round ratios, SCORING.md), median (ratio of medians) or p10 (ratio of 10th percentiles)."),
) -> None:
    """Apply a pass to every subgraph of a task, compile with Inductor, check and time it, score it.

    Exit codes (docs/cli.md): 0 at least one subgraph correct at t=-5 and no defence fired; 1 no
    subgraph correct, or the pass does not load; 2 bad input; 3 an integrity defence fired.
    """
    from ...tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from ...tools.measure.scoring import ScoringConfig
    from ...tools.tasks.loader import load_task

    check_device(device)
    try:
        options = EvalOptions(
            device=device,
            baseline=baseline,
            draws=draws,
            seed=seed,
            degenerate_std=degenerate_std,
            scoring=ScoringConfig(slowdown_penalty=slowdown_penalty, failure_penalty=failure_penalty),
            timeout_s=timeout,
            timing_budget_s=timing_budget,
            cache_root=cache_dir,
            use_cache=not no_cache,
            integrity_mode=integrity_mode,
            cpu_threads=cpu_threads or None,
            profile=profile,
            reuse_inductor_time=reuse_inductor_time,
            time_statistic=time_statistic,
        )
    except ValueError as exc:
        fail(exc)
    loaded = load_task(task)
    if json_out:
        result = evaluate_pass(loaded, pass_path, options)
    else:
        with Console(stderr=True).status(f"evaluating {pass_path} on {loaded.id} ({len(loaded.subgraphs)} subgraphs)..."):
            result = evaluate_pass(loaded, pass_path, options)
    show_eval_result(result, json_out)


# --- passagent check --------------------------------------------------------------------------


@app.command("time")
def time_cmd(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id (task_042)."),
    pass_path: Path = typer.Option(..., "--pass", "-p", help="A pass file or a PassNet pass_dir/."),
    subgraph: Optional[int] = typer.Option(None, "--subgraph", "-s", min=0, help="Only this subgraph (default: every one)."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per subgraph (the evaluation's default)."),
    cpu_threads: int = typer.Option(1, min=0, help="Threads on the CPU, as `eval --cpu-threads` (0: torch's default)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
    json_out: bool = typer.Option(False, "--json", help="Print the JSON result (the evaluation's format, held-out step off)."),
) -> None:
    """Time a pass quickly against eager and default Inductor: the evaluation's rounds, no held-out shape, no score.

    What the agent's time_pass tool shows a model: per subgraph the status on the timed draws and
    the paired speedups with their spread. Exit codes (docs/cli.md): 0 some subgraph ran correct;
    1 none did, or the pass does not load; 2 bad input; 3 an integrity defence fired."""
    from dataclasses import replace

    from ...tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from ...tools.tasks.loader import load_task
    from .support import eval_exit_code
    from ..run.condense import describe_time
    from ..run.render import load_failure
    from ..run.toolbox import quick_timing_options

    check_device(device)
    try:
        options = quick_timing_options(EvalOptions(device=device, timing_budget_s=timing_budget, cache_root=cache_dir,
                                                   cpu_threads=cpu_threads or None))
    except ValueError as exc:
        fail(exc)
    loaded = load_task(task)
    if subgraph is not None:
        if subgraph >= len(loaded.subgraphs):
            fail(f"{loaded.id} has {len(loaded.subgraphs)} subgraph(s): --subgraph must be 0..{len(loaded.subgraphs) - 1}")
        loaded = replace(loaded, subgraphs=(loaded.subgraphs[subgraph],))
    with Console(stderr=True).status(f"timing {pass_path} on {loaded.id} ({len(loaded.subgraphs)} subgraphs)...") if not json_out \
            else _nothing():
        result = evaluate_pass(loaded, pass_path, options)
    if json_out:
        typer.echo(result.model_dump_json(indent=2))
    elif (line := load_failure(result)) is not None:
        fail(line, ExitCode.FAILED)
    else:
        sys.stdout.write(describe_time(result, for_user=True) + "\n")
    raise typer.Exit(eval_exit_code(result))


def _nothing():
    import contextlib

    return contextlib.nullcontext()


@app.command("inspect")
def inspect_cmd(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id (task_042)."),
    subgraph: Optional[int] = typer.Option(None, "--subgraph", "-s", min=0, help="Only this subgraph (default: every one)."),
    view: str = typer.Option("fx", help="fx (the graph a pattern must match, with its node table), aten (Inductor's post-grad graph), all (fx and aten), or baseline (default Inductor: its kernels, correctness level against eager, profile, and times measured by an earlier eval of the task)."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    cpu_threads: int = typer.Option(1, min=0, help="Threads on the CPU, as `eval --cpu-threads` (0: torch's default)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default: PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
) -> None:
    """What the agent's inspect_ir and show_baseline tools show a model, for a task's subgraphs.

    The same text, from the same inspection (run in a child process, cached by subgraph content,
    device type and threads).

    Exit codes (docs/cli.md): 0 shown; 1 an inspection failed; 2 bad input."""
    import tempfile

    from ...tools.evaluation.evaluate import EvalOptions
    from ...tools.tasks.loader import load_task
    from ..protocols import ToolCall
    from ..run.toolbox import PassWorkspace, Toolbox

    check_device(device)
    view = view.lower()
    if view not in ("fx", "aten", "all", "baseline"):
        fail(f"--view must be fx, aten, all or baseline, not {view!r}")
    loaded = load_task(task)
    if subgraph is not None and subgraph >= len(loaded.subgraphs):
        fail(f"{loaded.id} has {len(loaded.subgraphs)} subgraph(s): --subgraph must be 0..{len(loaded.subgraphs) - 1}")
    indices = [subgraph] if subgraph is not None else list(range(len(loaded.subgraphs)))
    options = EvalOptions(device=device, cpu_threads=cpu_threads or None, cache_root=cache_dir)
    failed = False
    with tempfile.TemporaryDirectory(prefix="passagent-inspect-") as tmp:
        toolbox = Toolbox(loaded, PassWorkspace(Path(tmp) / "pass"), options, evaluator=None)  # type: ignore[arg-type]
        for n, i in enumerate(indices):
            name, arguments = ("show_baseline", {"subgraph": i}) if view == "baseline" else ("inspect_ir", {"subgraph": i, "view": view})
            out = toolbox.execute(ToolCall(id=str(n), name=name, arguments=arguments, raw_arguments=""))
            failed |= out.is_error
            sys.stdout.write(("\n" if n else "") + out.text.rstrip() + "\n")
    raise typer.Exit(ExitCode.FAILED if failed else ExitCode.OK)


@app.command("check")
def check_cmd(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id."),
    pass_path: Path = typer.Option(..., "--pass", "-p", help="Pass file, or a PassNet pass_dir/."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N (where the rewritten graph runs)."),
    subgraph: Optional[int] = typer.Option(None, "--subgraph", "-s", help="Show this subgraph's rewritten FX graph (default: the first matched); --inductor and --divergence look at it."),
    integrity_mode: str = typer.Option("permissive", help="Static checks' mode: permissive or strict."),
    timeout: float = typer.Option(300.0, help="Time limit of the check (seconds)."),
    inductor: bool = typer.Option(False, "--inductor", help="Also show the candidate's post-grad graph and the kernels Inductor generates on --subgraph (default 0)."),
    eager: bool = typer.Option(False, "--eager", help="Run each rewritten graph eagerly instead of compiling it with Inductor: faster; in half precision its verdict can differ from the evaluation's."),
    kernel: Optional[str] = typer.Option(None, help="With --inductor: show only this generated kernel's source, a page at a time."),
    from_line: int = typer.Option(1, min=1, help="With --kernel: the page's first line (the output names the next page's)."),
    cpu_threads: int = typer.Option(1, min=0, help="Threads on the CPU, as `eval --cpu-threads` (0: torch's default)."),
    divergence: bool = typer.Option(False, "--divergence", help="On --subgraph (default: the first subgraph whose candidate fails t=-5): the first graph node whose value leaves --level against eager, for default Inductor and the candidate (compiled, or eager with --eager)."),
    level: Optional[int] = typer.Option(None, min=-10, max=4, help="With --divergence: the tolerance level t searched at (default: the strictest level an output fails)."),
    json_out: bool = typer.Option(False, "--json", help="Print the check report as JSON."),
) -> None:
    """Check a pass in seconds: static checks, matches and why not, the rewritten graph, one draw against eager.

    Per subgraph: the static checks, matches and no-match diagnostics, the rewritten FX graph, and
    the candidate compiled by Inductor (as the evaluation compiles it; --eager: run eagerly) on one
    input draw against eager. No timing, no score.

    Exit codes (docs/cli.md): 0 every subgraph matched and would be correct at t=-5; 1 not clean
    (the pass does not load, matches nothing somewhere, or gives wrong values); 2 bad input; 3 the
    static checks refuse the pass."""
    from ...tools.inspection.check import AUTO_SUBGRAPH, check_pass_on_task
    from ...tools.passes.rules import source_load_error
    from ...tools.integrity.static_checks import Mode
    from ...tools.tasks.loader import load_task
    from ..run.condense import check_exit_code, describe_check, describe_load_error

    check_device(device)
    try:
        mode = Mode(integrity_mode)
    except ValueError:
        fail(f"integrity mode must be permissive or strict, not {integrity_mode!r}")
    loaded = load_task(task)
    if subgraph is not None and not 0 <= subgraph < len(loaded.subgraphs):
        fail(f"--subgraph must be in 0..{len(loaded.subgraphs) - 1}")
    if kernel is not None and not inductor:
        fail("--kernel names a generated kernel, shown only with --inductor")
    if level is not None and not divergence:
        fail("--level is the divergence search's level, used only with --divergence")
    # A pass that does not parse is said to be so before anything else (nothing of it runs here).
    if (unloadable := source_load_error(pass_path)) is not None and not json_out:
        sys.stdout.write(describe_load_error(*unloadable) + "\n")
        raise typer.Exit(ExitCode.FAILED)
    report = check_pass_on_task(loaded, pass_path, device=device, timeout_s=timeout, integrity_mode=mode.value,
                                inductor_subgraph=(subgraph or 0) if inductor else None, cpu_threads=cpu_threads or None,
                                divergence_subgraph=(AUTO_SUBGRAPH if subgraph is None else subgraph) if divergence else None,
                                divergence_level=level,
                                eager=eager)
    if json_out:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    else:
        sys.stdout.write(describe_check(report, graph_of=subgraph, for_user=True, kernel=kernel, from_line=from_line) + "\n")
    raise typer.Exit(check_exit_code(report))


def _add_solve_command() -> None:
    from .solve import register  # solve; LangGraph loads when it runs

    register(app)


_add_solve_command()


@app.command("sweep")
def sweep_cmd(
    models: Optional[str] = typer.Option(None, "--models", help="Comma-separated model specs (as for solve --model); a rerun may omit them."),
    tasks: Optional[list[str]] = typer.Option(None, "--tasks", help="Task selector: ids, task_000-task_009, all, category:X, op:X, ops:A>B, @file, folders/globs (comma-separated or repeated)."),
    workers: int = typer.Option(2, min=1, help="Runs at once (model calls overlap; evaluations take turns per device)."),
    devices: Optional[str] = typer.Option(None, help="Device pool the evaluations lease: cpu (default), GPU indices 0,1, or cuda:N."),
    seeds: Optional[int] = typer.Option(None, min=1, help="Runs per (model, task), seeds 0..K-1 (default 1)."),
    out: Path = typer.Option(Path("runs"), help="Output root; the sweep lives in OUT/SWEEP_ID."),
    sweep_id: Optional[str] = typer.Option(None, help="Sweep id (default: a timestamp); an existing one is resumed."),
    budget_usd: Optional[float] = typer.Option(None, help="Global budget: stop once the sweep has spent this many US dollars."),
    max_calls: Optional[int] = typer.Option(None, help="Global budget: stop after this many model calls over the sweep."),
    max_wall: Optional[float] = typer.Option(None, help="Global budget: stop after this many seconds of this invocation."),
    drain: bool = typer.Option(False, "--drain", help="On a global budget, let running runs finish instead of stopping them."),
    max_steps: int = typer.Option(40, help="Per run: model calls at most."),
    patience: int = typer.Option(3, help="Per run: stop after this many evaluations without AS improving."),
    run_budget_usd: Optional[float] = typer.Option(None, help="Per run: stop once this many US dollars are spent."),
    run_max_wall: Optional[float] = typer.Option(None, help="Per run: stop after this many seconds."),
    baseline: str = typer.Option("eager", help="Score against eager or inductor."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per subgraph per evaluation (default: 0.5 on the CPU, at most 1.5 on CUDA)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
    integrity_mode: str = typer.Option("permissive", help="permissive or strict."),
    profile: bool = typer.Option(False, "--profile/--no-profile", help="Profile every evaluation (else profile_pass evaluates on demand)."),
    time_statistic: str = typer.Option("paired", help="How speedups are estimated: paired (median of per-round ratios, SCORING.md), median (ratio of medians) or p10 (ratio of 10th percentiles)."),
    models_file: Optional[Path] = typer.Option(None, help="models.toml with short model names and prices."),
    backend: str = typer.Option("local", help="local (processes on this machine) or ray."),
    ray_address: Optional[str] = typer.Option(None, help="Ray cluster address (default: the local one, started if needed)."),
    ray_num_cpus: Optional[int] = typer.Option(None, help="CPUs of a Ray cluster started for this sweep."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live view; one line per finished run."),
) -> None:
    """Run every model on every selected task (and seed) in parallel; resumable; within global budgets.

    Exit codes (docs/cli.md, first that applies): 130 interrupted; 70 a run crashed (its error in
    failures/); 75 unfinished (a global budget or a model outage; rerun to continue); 4 a run ended
    on a model-side failure; 2 bad input; 0 every run finished."""
    from .sweep import run_sweep_command

    raise typer.Exit(run_sweep_command(locals()))


@app.command("report")
def report_cmd(
    runs_dir: Path = typer.Argument(..., help="A sweep folder (runs/<sweep_id>) or any folder of run folders."),
    out: Optional[Path] = typer.Option(None, help="Where the report goes (default RUNS_DIR/report)."),
    bootstrap: int = typer.Option(2000, min=100, help="Bootstrap resamples over tasks for the confidence intervals."),
    seed: int = typer.Option(0, help="Seed of the bootstrap."),
    no_plots: bool = typer.Option(False, "--no-plots", help="Skip the PNG plots (no matplotlib needed)."),
    html: bool = typer.Option(False, "--html", help="Also write a static site (leaderboard, task pages, trajectory "
                                                    "viewer) under OUT/html; no server or network needed to open it."),
) -> None:
    """Leaderboard per model (Markdown + CSV) with bootstrap confidence intervals, PNG plots and, with --html, a static site.

    The terminal gets a summary that fits its width; the full tables are in the files it names."""
    import shutil

    from ..report.build import write_report
    from ..report.tables import terminal_summary

    written = write_report(runs_dir, out, n_boot=bootstrap, seed=seed, plots=not no_plots, html=html)
    sys.stdout.write(terminal_summary(written.rows, shutil.get_terminal_size().columns) + "\n")
    for problem in written.skipped:
        err.print(f"[yellow]skipped[/yellow] {problem}", highlight=False, soft_wrap=True)
    files = [written.leaderboard_md, written.leaderboard_csv, written.per_task_csv]
    Console().print(f"full tables: {', '.join(str(f) for f in files)}" + (f"; {len(written.plots)} plot(s)" if written.plots else ""),
                    highlight=False, soft_wrap=True)
    if written.html_index is not None:
        Console().print(f"site: {written.html_index}", highlight=False, soft_wrap=True)


@app.command("export")
def export_cmd(
    runs_dir: Path = typer.Argument(..., help="A sweep folder or any folder of run folders."),
    format: str = typer.Option("openai", "--format", "-f", help="openai, anthropic, sharegpt or parquet."),
    out: Optional[Path] = typer.Option(None, help="Output folder (default RUNS_DIR/export-FORMAT)."),
    min_as: Optional[float] = typer.Option(None, help="Keep runs whose best AS is at least this."),
    best_only: bool = typer.Option(False, "--best-only", help="Keep only the best run of each task."),
    eval_fraction: float = typer.Option(0.1, min=0.0, max=1.0, help="Share of tasks held out for the eval split."),
    split_seed: int = typer.Option(0, help="Seed of the task split."),
) -> None:
    """Export trajectories as training data (train/eval split by task, deduplicated, with a dataset card)."""
    from ..export.build import export_runs

    written = export_runs(runs_dir, format, out, min_as=min_as, best_only=best_only,
                          eval_fraction=eval_fraction, split_seed=split_seed)
    for problem in written.skipped:
        err.print(f"[yellow]skipped[/yellow] {problem}", highlight=False, soft_wrap=True)
    Console().print(f"exported {written.counts['train']} train and {written.counts['eval']} eval records "
                    f"({written.duplicates} duplicates dropped) to {written.out}", highlight=False)


def _add_apply_commands() -> None:
    from .apply import register  # apply, export-pass, coverage; torch loads when they run

    register(app)


_add_apply_commands()


# -- redteam ------------------------------------------------------------------------------------


@app.command("redteam")
def redteam_cmd(
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    only: Optional[str] = typer.Option(None, help="Run only corpus passes whose name contains this."),
    runtime_only: bool = typer.Option(False, "--runtime-only", help="Static checks off: every attack meets the candidate process's confinement and the referee's checks alone."),
    jobs: int = typer.Option(1, min=1, help="Evaluations run at once, each with its own processes."),
) -> None:
    """Run the adversarial corpus (and honest passes) through the harness: caught, unrewarded or rewarded per pattern, attack-success rate.

    Exit codes (docs/cli.md): 0 no attack rewarded and no honest pass flagged; 1 otherwise; 2 bad input."""
    from ...tools.redteam import format_table, load_corpus, run_corpus, summary

    check_device(device)
    if not load_corpus(only=only):
        import difflib

        near = difflib.get_close_matches(only or "", [e.name for e in load_corpus()], n=2, cutoff=0.6)
        fail(f"no corpus pass matches --only {only!r}" + (f"; did you mean {' or '.join(near)}?" if near else ""))
    outcomes = run_corpus(device, only=only, static_checks=not runtime_only, jobs=jobs,
                          on_outcome=lambda o: err.print(f"{o.entry.name}: {o.verdict} ({o.outcome})" if not o.entry.honest else f"{o.entry.name}: {o.verdict}", highlight=False))
    sys.stdout.write(format_table(outcomes) + "\n")
    s = summary(outcomes)
    if s["missed"] or s["honest_flagged"]:
        raise typer.Exit(ExitCode.FAILED)


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
