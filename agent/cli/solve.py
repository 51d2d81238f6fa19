"""``passagent solve``: options, the checks made before any work, the run, its result and exit code.

Everything that can be wrong with the request (device, options, task, model, run folder) is
found before the live view is drawn or a file is written. An interruption (SIGINT or SIGTERM)
stops every child process, keeps every recorded event, and prints the command that resumes the
run. Registered on the main app by :func:`register`.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape

from .support import Interrupted, check_device, err, fail, stop_children
from ..exit_codes import ExitCode
from ..numbers import RATIO_LABEL, confirmed_as, fmt_ratio


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
    """Let a model write a pass for a task, evaluate it with the harness, iterate; archive everything.

    Exit codes (docs/cli.md): 0 some version was correct at t=-5 on a subgraph; 1 none was (or none
    was evaluated); 2 bad input; 4 the run ended on a model error, format errors or a refusal; 75 the
    model service stayed overloaded (resumable); 130 interrupted (resumable; the command is printed).
    """
    from ...tools.evaluation.evaluate import EvalOptions
    from ...tools.tasks.loader import load_task
    from ..run.loop import SolveConfig
    from ..run.solve import check_run_folder, exit_code, new_run_id, probe_tools, resolve_client, run_dir, solve

    check_device(device)
    try:
        config = SolveConfig(max_steps=max_steps, patience=patience, budget_usd=budget_usd, max_tokens=max_tokens, max_wall_s=max_wall)
        options = EvalOptions(device=device, baseline=baseline, timing_budget_s=timing_budget, cache_root=cache_dir,
                              integrity_mode=integrity_mode, profile=profile, time_statistic=time_statistic,
                              standby=True)  # the loop evaluates again and again: pre-start each next worker
    except ValueError as exc:
        fail(str(exc).splitlines()[0])
    loaded = load_task(task)  # a missing or misspelled task: one line, before anything is drawn
    client = resolve_client(model, models_file)
    run_id = run_id or (None if resume else new_run_id())
    check_run_folder(out, run_id, loaded.id, client.name, resume)
    if not resume:
        probe_tools(client, options)  # a server that cannot serve the tools: one line, no live view
    folder = run_dir(out, run_id, loaded.id, client.name)  # type: ignore[arg-type]
    again = resume_command(task, model, out, run_id, models_file)  # type: ignore[arg-type]
    try:
        if quiet:
            result = solve(loaded, model, out=out, run_id=run_id, resume=resume, config=config, eval_options=options,
                           client=client, check_reachable=False)
        else:
            from ..run.live import LiveView

            with LiveView(loaded.id, client.name) as view:
                result = solve(loaded, model, out=out, run_id=run_id, resume=resume, config=config,
                               eval_options=options, client=client, on_event=view.update, check_reachable=False)
                view.finish(result)
    except KeyboardInterrupt as exc:
        stop_children()
        how = exc.args[0] if isinstance(exc, Interrupted) else "SIGINT"
        if (folder / "config.json").is_file():
            err.print(f"[yellow]interrupted[/yellow] ({how}): run {escape(str(run_id))} stopped, every recorded event "
                      f"kept; resume it with: {escape(again)}", highlight=False, soft_wrap=True)
        else:
            err.print(f"[yellow]interrupted[/yellow] ({how}) before the run started; nothing was written",
                      highlight=False, soft_wrap=True)
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    if result.get("resumable"):
        err.print(f"[yellow]stopped[/yellow]: {escape(str(result['error']))}; the run is resumable: {escape(again)}",
                  highlight=False, soft_wrap=True)
        raise typer.Exit(exit_code(result))
    print_solve_result(result, out)
    raise typer.Exit(exit_code(result))


def resume_command(task: str, model: str, out: Path, run_id: str, models_file: Path | None) -> str:
    """The exact command that resumes run ``run_id`` (its settings come from its config.json)."""
    words = ["passagent", "solve", task, "--model", model, "--out", str(out), "--run-id", run_id, "--resume"]
    if models_file is not None:
        words += ["--models-file", str(models_file)]
    return " ".join(shlex.quote(w) for w in words)


def result_line(result: dict[str, Any]) -> str:
    """The headline of a finished run: best AS against its baseline (saying so where the
    confirmation measured it lower than its step did), AS / AS(Inductor) from the same
    evaluation, the version and correct@-5."""
    best = result.get("best_as")
    if best is None:
        return "best AS: none (no pass was evaluated)"
    scores = result.get("best_scores") or {}
    text = f"best AS: {confirmed_as(best, result.get('best_step_as'))} against {scores.get('baseline', 'eager')}"
    if result.get("best_ratio_to_inductor") is not None:
        text += f", {RATIO_LABEL} {fmt_ratio(result['best_ratio_to_inductor'])}"
    details = [f"version {result['best_version']}"]
    if scores.get("correct_at_minus5") is not None:
        details.append(f"correct@-5 {scores['correct_at_minus5']:.0%}")
    text += f" ({', '.join(details)})"
    if result.get("versions_correct") == 0:
        text += "; no version was correct at t=-5 on any subgraph"
    return text


def print_solve_result(result: dict[str, Any], out: Path) -> None:
    from ..run.archive import safe_name

    folder = out / safe_name(result["run_id"]) / safe_name(result["task_id"]) / safe_name(result["model"])
    console = Console()
    # Summaries and errors are text, not Rich markup: "`Rule` [library form]" would lose its tag.
    # Soft wrap: the terminal folds long lines; piped output keeps one line per field for grep.
    console.print(f"[bold]exit[/bold]: {result['exit_reason']}   {escape(result_line(result))}   "
                  f"steps {result['steps']}, evaluations {result['evaluations']}, ${result['cost_usd']:.4f}, "
                  f"{result['wall_s']:.0f} s", highlight=False, soft_wrap=True)
    if result.get("summary"):
        console.print(f"[bold]model's summary[/bold] (its own account, at finish): {escape(result['summary'])}", highlight=False, soft_wrap=True)
    if result.get("error"):
        console.print(f"[red]error[/red]: {escape(str(result['error']))}", highlight=False, soft_wrap=True)
    console.print(f"archive: {escape(str(folder))}", highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``solve`` to ``app``."""
    app.command("solve")(solve_cmd)
