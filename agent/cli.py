"""The ``passagent`` command line (Typer + Rich).

Commands import what they need when they run, so ``passagent eval`` and ``passagent tasks``
work on a machine that has only the harness's dependencies (no LangGraph, no model SDKs).
Bad input (a malformed task, a missing pass file) prints one line and exits with code 2.
``passagent solve`` exits 3 when the run ended on a model error, 4 on repeated format errors,
5 on a refusal, and 75 (EX_TEMPFAIL) when the model service stayed overloaded: that run is
resumable with ``--resume``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..tools.errors import PassagentError

app = typer.Typer(
    name="passagent",
    help="Language models write graph-compiler passes for PyTorch; the harness checks and scores them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
tasks_app = typer.Typer(help="Browse and inspect tasks.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")


def _add_bench_app() -> None:
    from ..bench.cli import bench_app  # imports only typer and rich at load time

    app.add_typer(bench_app, name="bench")


_add_bench_app()


def _version(value: bool) -> None:
    if value:
        import torch

        from .. import __version__

        typer.echo(f"passagent {__version__} (torch {torch.__version__})")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Language models write graph-compiler passes for PyTorch; the harness checks and scores them."""

err = Console(stderr=True)


def _fail(exc: PassagentError) -> None:
    err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
    raise typer.Exit(exc.exit_code)


@tasks_app.command("show")
def tasks_show(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id (task_042)."),
    code: bool = typer.Option(False, "--code", help="Also print each subgraph's code (model.py): the graph a pattern must match, written as Dynamo captured it."),
    subgraph: Optional[int] = typer.Option(None, "--subgraph", "-s", min=0, help="Only this subgraph (its index, as in graphs/N)."),
) -> None:
    """Print a task's subgraphs: argument shapes, dtypes, recorded statistics, operator sequence (and code)."""
    from ..tools.tasks import load_task
    from .render import print_renderable, task_table

    try:
        loaded = load_task(task)
    except PassagentError as exc:
        _fail(exc)
        return
    if subgraph is not None:
        if subgraph >= len(loaded.subgraphs):
            err.print(f"[red]error:[/red] {loaded.id} has {len(loaded.subgraphs)} subgraph(s): --subgraph must be 0..{len(loaded.subgraphs) - 1}")
            raise typer.Exit(2)
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
    from ..bench.cli import tasks_list
    from ..tools.builtin_tasks import load_manifest

    categories = sorted({r["category"] for r in load_manifest()})
    if category is not None and category not in categories:
        err.print(f"[red]error:[/red] unknown category {category!r}; the categories are {', '.join(categories)}")
        raise typer.Exit(2)
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
    timeout: float = typer.Option(300.0, help="Per-subgraph time limit in the worker (seconds)."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per subgraph (default: 0.5 on the CPU; on CUDA at most 1.5, stopping once each median is known to +-0.5%)."),
    slowdown_penalty: float = typer.Option(0.0, help="p in r(s)=s^(p+1) for slowdowns (SCORING.md)."),
    failure_penalty: float = typer.Option(0.1, help="b, the score of a failed subgraph (SCORING.md)."),
    degenerate_std: float = typer.Option(1.0, help="std drawn for float inputs whose recorded std is 0."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Remeasure baselines instead of using the cache."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
    integrity_mode: str = typer.Option("permissive", help="permissive, or strict (PassNet's: replacements may only allocate and call Triton)."),
    cpu_threads: int = typer.Option(1, help="Threads for CPU evaluations (0: torch's default). Single-threaded timings stay meaningful on a shared machine."),
    profile: bool = typer.Option(False, "--profile", help="Also profile Inductor and the candidate per subgraph (kernel tables with times)."),
    reuse_inductor_time: bool = typer.Option(False, "--reuse-inductor-time", help="Take Inductor's time from the baseline cache (rescaled, marked *) instead of timing it beside the candidate: faster, but the candidate is then timed with different neighbours (see README)."),
    time_statistic: str = typer.Option("paired", help="How speedups are estimated: paired (median of per-round ratios, SCORING.md), median (ratio of medians) or p10 (ratio of 10th percentiles)."),
) -> None:
    """Apply a pass to every subgraph of a task, compile with Inductor, check and time it, score it.

    Exit codes: 0 evaluated, at least one subgraph correct at t=-5 and no defence fired; 1 the pass
    failed on every subgraph (or did not load); 2 bad input; 4 an integrity defence fired.
    """
    from ..tools.evaluate import EvalOptions, evaluate_pass
    from ..tools.scoring import ScoringConfig
    from ..tools.tasks import load_task

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
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    try:
        loaded = load_task(task)
        if json_out:
            result = evaluate_pass(loaded, pass_path, options)
        else:
            with Console(stderr=True).status(f"evaluating {pass_path} on {loaded.id} ({len(loaded.subgraphs)} subgraphs)..."):
                result = evaluate_pass(loaded, pass_path, options)
    except PassagentError as exc:
        _fail(exc)
        return
    if json_out:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        from .render import eval_table, print_renderable

        print_renderable(eval_table(result))
    raise typer.Exit(eval_exit_code(result))


#: ``passagent eval``'s exit codes (also in ``--help`` and the README).
EXIT_OK, EXIT_ALL_FAILED, EXIT_BAD_INPUT, EXIT_INTEGRITY = 0, 1, 2, 4


def eval_exit_code(result) -> int:
    """4 if an integrity defence fired on any subgraph, else 1 if no subgraph is correct at
    t = -5 (the pass failed everywhere, or did not load), else 0."""
    if any(s.failure_class == "integrity" for s in result.subgraphs):
        return EXIT_INTEGRITY
    if not any(s.status == "correct" for s in result.subgraphs):
        return EXIT_ALL_FAILED
    return EXIT_OK


# --- passagent check --------------------------------------------------------------------------


@app.command("check")
def check_cmd(
    task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id."),
    pass_path: Path = typer.Option(..., "--pass", "-p", help="Pass file, or a PassNet pass_dir/."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N (where the rewritten graph runs)."),
    subgraph: Optional[int] = typer.Option(None, help="Show this subgraph's rewritten FX graph (default: the first matched)."),
    integrity_mode: str = typer.Option("permissive", help="Static checks' mode: permissive or strict."),
    timeout: float = typer.Option(120.0, help="Time limit of the check (seconds)."),
    inductor: bool = typer.Option(False, "--inductor", help="Also compile the candidate on --subgraph (default 0) with Inductor: its post-grad graph and kernels."),
    json_out: bool = typer.Option(False, "--json", help="Print the check report as JSON."),
) -> None:
    """Check a pass in seconds: static checks, matches and no-match diagnostics per subgraph, the
    rewritten FX graph, one input draw against eager. No Inductor compile, no timing, no score.
    Exit status 0 when every subgraph matched and would be correct at t=-5, 1 otherwise."""
    from ..tools.check import check_pass_on_task
    from ..tools.static_checks import Mode
    from ..tools.tasks import load_task
    from .condense import describe_check

    try:
        mode = Mode(integrity_mode)
    except ValueError:
        err.print(f"[red]error:[/red] integrity mode must be permissive or strict, not {integrity_mode!r}")
        raise typer.Exit(2) from None
    try:
        loaded = load_task(task)
        if subgraph is not None and not 0 <= subgraph < len(loaded.subgraphs):
            err.print(f"[red]error:[/red] --subgraph must be in 0..{len(loaded.subgraphs) - 1}")
            raise typer.Exit(2)
        report = check_pass_on_task(loaded, pass_path, device=device, timeout_s=timeout, integrity_mode=mode.value,
                                    inductor_subgraph=(subgraph or 0) if inductor else None)
    except PassagentError as exc:
        _fail(exc)
        return
    if json_out:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    else:
        sys.stdout.write(describe_check(report, graph_of=subgraph) + "\n")
    clean = (not report.findings and not report.load_error and not report.error and report.subgraphs
             and all(s.matches and not s.error and not s.no_change and s.outputs and all(
                 o.problem is None and o.min_correct_t is not None and o.min_correct_t <= -5 for o in s.outputs)
                     for s in report.subgraphs))
    raise typer.Exit(0 if clean else 1)


@app.command("solve")
def solve_cmd(
    task: str = typer.Argument(..., help="Built-in task id (task_042) or a task folder."),
    model: str = typer.Option("builtin", "--model", "-m", help="builtin, a models.toml name, openai:<m>, anthropic:<m>, compat:<m>@<url>, scripted:<file>."),
    max_steps: int = typer.Option(40, help="Model calls at most."),
    patience: int = typer.Option(3, help="Stop after this many evaluations without AS improving."),
    budget_usd: Optional[float] = typer.Option(None, help="Stop once this many US dollars are spent."),
    max_tokens: Optional[int] = typer.Option(None, help="Stop once this many tokens are used."),
    max_wall: Optional[float] = typer.Option(None, help="Stop after this many seconds."),
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    baseline: str = typer.Option("eager", help="Score against eager or inductor."),
    out: Path = typer.Option(Path("runs"), help="Archive root."),
    run_id: Optional[str] = typer.Option(None, help="Run id (default: a timestamp); with --resume, the run to resume."),
    resume: bool = typer.Option(False, "--resume", help="Continue run --run-id from its checkpoint."),
    models_file: Optional[Path] = typer.Option(None, help="models.toml with short model names and prices."),
    timing_budget: Optional[float] = typer.Option(None, help="Seconds of timed calls per subgraph per evaluation (default: 0.5 on the CPU, at most 1.5 on CUDA)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
    integrity_mode: str = typer.Option("permissive", help="permissive or strict (see passagent eval --help)."),
    profile: bool = typer.Option(False, "--profile/--no-profile", help="Profile every evaluation (else the profile_pass tool runs a profiled evaluation when the model asks)."),
    time_statistic: str = typer.Option("paired", help="How speedups are estimated: paired (median of per-round ratios, SCORING.md), median (ratio of medians) or p10 (ratio of 10th percentiles)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live view; print only the result."),
) -> None:
    """Let a model write a pass for a task, evaluate it with the harness, iterate; archive everything."""
    from ..tools.evaluate import EvalOptions
    from .loop import SolveConfig
    from .solve import resolve_client, solve

    try:
        config = SolveConfig(max_steps=max_steps, patience=patience, budget_usd=budget_usd, max_tokens=max_tokens, max_wall_s=max_wall)
        options = EvalOptions(device=device, baseline=baseline, timing_budget_s=timing_budget, cache_root=cache_dir,
                              integrity_mode=integrity_mode, profile=profile, time_statistic=time_statistic,
                              standby=True)  # the loop evaluates again and again: pre-start each next worker
    except ValueError as exc:
        err.print(f"[red]error:[/red] {str(exc).splitlines()[0]}")
        raise typer.Exit(2) from None
    try:
        client = resolve_client(model, models_file)
        if quiet:
            result = solve(task, model, out=out, run_id=run_id, resume=resume, config=config, eval_options=options, client=client)
        else:
            from .live import LiveView

            with LiveView(task, client.name) as view:
                result = solve(task, model, out=out, run_id=run_id, resume=resume, config=config,
                               eval_options=options, client=client, on_event=view.update)
    except PassagentError as exc:
        _fail(exc)
        return
    from .solve import exit_code

    if result.get("resumable"):
        err.print(f"[yellow]stopped[/yellow]: {result['error']}", highlight=False)
        err.print(f"the run is resumable: passagent solve {task} --model {model} --out {out} "
                  f"--run-id {result['run_id']} --resume", highlight=False, soft_wrap=True)
        raise typer.Exit(exit_code(result))
    _print_solve_result(result, out)
    if exit_code(result):
        raise typer.Exit(exit_code(result))


def _print_solve_result(result: dict, out: Path) -> None:
    from rich.markup import escape

    from .archive import safe_name

    folder = out / safe_name(result["run_id"]) / safe_name(result["task_id"]) / safe_name(result["model"])
    best = result["best_as"]
    console = Console()
    scores = result.get("best_scores") or {}
    correct = f", correct@-5 {scores['correct_at_minus5']:.0%}" if scores.get("correct_at_minus5") is not None else ""
    console.print(f"[bold]exit[/bold]: {result['exit_reason']}   [bold]best AS[/bold]: "
                  + (f"{best:.4f} (version {result['best_version']}{correct})" if best is not None
                     else "none (no pass was evaluated)")
                  + f"   steps {result['steps']}, evaluations {result['evaluations']}, ${result['cost_usd']:.4f}, {result['wall_s']:.0f} s")
    # Summaries and errors are text, not Rich markup: "`Rule` [library form]" would lose its tag.
    if result.get("summary"):
        console.print(f"[bold]summary[/bold]: {escape(result['summary'])}", highlight=False)
    if result.get("error"):
        console.print(f"[red]error[/red]: {escape(str(result['error']))}", highlight=False)
    console.print(f"archive: {folder}", highlight=False)


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
    """Run every model on every selected task (and seed) in parallel; resumable; within global budgets."""
    from .sweep_cli import run_sweep_command

    try:
        code = run_sweep_command(locals())
    except PassagentError as exc:
        _fail(exc)
        return
    raise typer.Exit(code)


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
    """Leaderboard per model (Markdown + CSV) with bootstrap confidence intervals, PNG plots and, with --html, a static site."""
    from .report import write_report

    try:
        written = write_report(runs_dir, out, n_boot=bootstrap, seed=seed, plots=not no_plots, html=html)
    except PassagentError as exc:
        _fail(exc)
        return
    sys.stdout.write(written.leaderboard_md.read_text())
    for problem in written.skipped:
        err.print(f"[yellow]skipped[/yellow] {problem}", highlight=False, soft_wrap=True)
    Console().print(f"report: {written.out}", highlight=False, soft_wrap=True)
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
    from .export import export_runs

    try:
        written = export_runs(runs_dir, format, out, min_as=min_as, best_only=best_only,
                              eval_fraction=eval_fraction, split_seed=split_seed)
    except PassagentError as exc:
        _fail(exc)
        return
    for problem in written.skipped:
        err.print(f"[yellow]skipped[/yellow] {problem}", highlight=False, soft_wrap=True)
    Console().print(f"exported {written.counts['train']} train and {written.counts['eval']} eval records "
                    f"({written.duplicates} duplicates dropped) to {written.out}", highlight=False)


def _add_apply_commands() -> None:
    from .apply_cli import register  # apply, export-pass, coverage; torch loads when they run

    register(app)


_add_apply_commands()


# -- redteam ------------------------------------------------------------------------------------


@app.command("redteam")
def redteam_cmd(
    device: str = typer.Option("cpu", help="cpu, cuda or cuda:N."),
    only: Optional[str] = typer.Option(None, help="Run only corpus passes whose name contains this."),
    runtime_only: bool = typer.Option(False, "--runtime-only", help="Static checks off: every attack reaches the worker's runtime defences."),
    jobs: int = typer.Option(1, min=1, help="Evaluations run at once, each in its own worker process."),
) -> None:
    """Run the adversarial corpus (and honest passes) through the harness: caught/missed per pattern, attack-success rate."""
    from ..tools.redteam import format_table, load_corpus, run_corpus, summary

    if not load_corpus(only=only):
        err.print(f"[red]error:[/red] no corpus pass matches --only {only!r}", highlight=False)
        raise typer.Exit(2)
    try:
        outcomes = run_corpus(device, only=only, static_checks=not runtime_only, jobs=jobs,
                              on_outcome=lambda o: err.print(f"{o.entry.name}: {o.rule or o.status}", highlight=False))
    except PassagentError as exc:
        _fail(exc)
        return
    sys.stdout.write(format_table(outcomes) + "\n")
    s = summary(outcomes)
    if s["missed"] or s["honest_flagged"]:
        raise typer.Exit(1)


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
