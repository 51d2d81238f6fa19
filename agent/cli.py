"""The ``passagent`` command line (Typer + Rich).

Commands import what they need when they run, so ``passagent eval`` and ``passagent tasks``
work on a machine that has only the harness's dependencies (no LangGraph, no model SDKs).
Bad input (a malformed task, a missing pass file) prints one line and exits with code 2.
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

err = Console(stderr=True)


def _fail(exc: PassagentError) -> None:
    err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
    raise typer.Exit(exc.exit_code)


@tasks_app.command("show")
def tasks_show(task: str = typer.Argument(..., help="Task folder, GraphNet sample folder, or built-in id (task_042).")) -> None:
    """Print a task's subgraphs: argument shapes, dtypes, recorded statistics, operator sequence."""
    from ..tools.tasks import load_task
    from .render import print_renderable, task_table

    try:
        print_renderable(task_table(load_task(task)))
    except PassagentError as exc:
        _fail(exc)


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
    timing_budget: float = typer.Option(0.5, help="Target seconds of timed calls per subgraph."),
    slowdown_penalty: float = typer.Option(0.0, help="p in r(s)=s^(p+1) for slowdowns (SCORING.md)."),
    failure_penalty: float = typer.Option(0.1, help="b, the score of a failed subgraph (SCORING.md)."),
    degenerate_std: float = typer.Option(1.0, help="std drawn for float inputs whose recorded std is 0."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Remeasure baselines instead of using the cache."),
    cache_dir: Optional[Path] = typer.Option(None, help="Cache root (default $PASSAGENT_CACHE_DIR or ~/.cache/passagent)."),
) -> None:
    """Apply a pass to every subgraph of a task, compile with Inductor, check and time it, score it."""
    from ..tools.evaluate import EvalOptions, evaluate_pass
    from ..tools.scoring import ScoringConfig
    from ..tools.tasks import load_task
    from ..tools.timing import TimingConfig

    try:
        options = EvalOptions(
            device=device,
            baseline=baseline,
            draws=draws,
            seed=seed,
            degenerate_std=degenerate_std,
            scoring=ScoringConfig(slowdown_penalty=slowdown_penalty, failure_penalty=failure_penalty),
            timeout_s=timeout,
            timing=TimingConfig(budget_s=timing_budget),
            cache_root=cache_dir,
            use_cache=not no_cache,
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


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
