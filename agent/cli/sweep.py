"""``passagent sweep`` glue: options -> plan -> scheduler -> progress view -> summary and exit code.

Exit codes (:class:`~passagent.agent.exit_codes.ExitCode`, docs/cli.md), the first that applies:
130 interrupted (rerun to continue); 70 a run crashed (its error in ``<sweep>/failures/``); 75
unfinished: a global budget or a model outage stopped runs (rerun, with a higher budget, to
continue); 4 a run ended on a model error, format errors or a refusal; 0 every run finished.
Bad options are 2, before any run starts.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from rich.console import Console

from ...tools.errors import PassagentError, require_device
from ...tools.evaluation.evaluate import EvalOptions
from ..exit_codes import ExitCode
from ..run.loop import SolveConfig
from ..sweep.runner import SweepBudgets, SweepOutcome, parse_devices, prepare, resolve_model_names, run_sweep, write_spec


def normalize_model_spec(spec: str) -> str:
    """``scripted:<relative file>`` -> absolute path, so worker processes (and Ray nodes) find it."""
    if spec.startswith("scripted:"):
        return "scripted:" + str(Path(spec.removeprefix("scripted:")).expanduser().resolve())
    return spec


def eval_options_from_args(a: dict[str, Any]) -> EvalOptions:
    """The harness options of every run of a sweep, from the CLI's arguments ``a``.

    ``--timing-budget`` is kept as a budget (``EvalOptions.timing_budget_s``), not turned into a
    ``TimingConfig`` here: the device is not known until an evaluation leases one from the pool,
    and the CUDA default (confidence-interval rule, CUDA-graph replays) differs from the CPU's.

    Raises:
        ValueError: an option ``EvalOptions`` rejects (baseline, integrity mode, statistic, budget).
    """
    return EvalOptions(baseline=a["baseline"], timing_budget_s=a["timing_budget"],
                       cache_root=Path(a["cache_dir"]).resolve() if a["cache_dir"] else None,
                       integrity_mode=a["integrity_mode"], profile=a.get("profile", False),
                       time_statistic=a.get("time_statistic", "paired"),
                       standby=True)  # each run evaluates again and again: pre-start each next worker


def run_sweep_command(a: dict[str, Any]) -> int:
    """Run the ``sweep`` command with the CLI's arguments ``a``; return the exit code.

    Raises:
        PassagentError: bad options, a selector that selects nothing, an unusable model.
    """
    from ..sweep.selectors import select_tasks

    console = Console(stderr=True)
    out = Path(a["out"]).expanduser().resolve()
    models = [normalize_model_spec(m.strip()) for m in (a["models"] or "").split(",") if m.strip()] or None
    tasks = select_tasks(a["tasks"]) if a["tasks"] else None
    if a["backend"] not in ("local", "ray"):
        raise PassagentError(f"--backend must be local or ray, not {a['backend']!r}")
    try:
        solve_config = SolveConfig(max_steps=a["max_steps"], patience=a["patience"], budget_usd=a["run_budget_usd"],
                                   max_wall_s=a["run_max_wall"])
        options = eval_options_from_args(a)
        given = {k: a[k] for k in ("budget_usd", "max_calls") if a[k] is not None}
        if a["max_wall"] is not None:
            given["max_wall_s"] = a["max_wall"]
        budgets = SweepBudgets(**given) if given else None
    except ValueError as exc:
        raise PassagentError(str(exc).splitlines()[0]) from None
    # cpu:N are the sweep's own stand-in slots of the CPU (parse_devices); CUDA must be there.
    devices = [require_device(d, "--devices", cpu_slots=True) for d in parse_devices(a["devices"])] if a["devices"] else None
    spec = prepare(out, a["sweep_id"], models, tasks, seeds=a["seeds"], devices=devices, solve_config=solve_config,
                   eval_options=options, budgets=budgets,
                   models_file=Path(a["models_file"]).resolve() if a["models_file"] else None, write=False)
    names = resolve_model_names(spec)  # an unusable model: one line, and no sweep folder is made
    write_spec(out, spec)
    executor = None
    if a["backend"] == "ray":
        from ..sweep.ray_pool import RayExecutor

        executor = RayExecutor(a["ray_address"], a["ray_num_cpus"])
    total = len(spec.models) * len(spec.tasks) * spec.seeds
    console.print(f"sweep {spec.sweep_id}: {len(spec.models)} model(s) x {len(spec.tasks)} task(s) x {spec.seeds} seed(s) "
                  f"= {total} runs, {a['workers']} at a time, devices {', '.join(spec.devices)} -> {out / spec.sweep_id}",
                  highlight=False)
    if a["quiet"] or not console.is_terminal:
        outcome = run_sweep(spec, out, workers=a["workers"], executor=executor, drain=a["drain"], model_names=names,
                            log=lambda line: console.print(line, highlight=False, soft_wrap=True))
    else:
        from ..sweep.view import SweepView

        with SweepView(total, f"sweep {spec.sweep_id}", console) as view:
            outcome = run_sweep(spec, out, workers=a["workers"], executor=executor, drain=a["drain"],
                                model_names=names, on_update=view.update)
    return _summarize(outcome, console)


def _summarize(o: SweepOutcome, console: Console) -> ExitCode:
    s = o.spend
    console.print(f"{o.finished}/{o.total} runs finished ({o.skipped} already were), {len(o.failed)} failed, "
                  f"{o.interrupted} stopped, {o.not_started} not started; {s.calls} model calls, ${s.cost_usd:.4f}, "
                  f"{s.input_tokens + s.output_tokens} tokens; {o.wall_s:.0f} s", highlight=False)
    again = " ".join(shlex.quote(w) for w in ("passagent", "sweep", "--sweep-id", o.sweep_dir.name, "--out", str(o.sweep_dir.parent)))
    rerun = f"continue it with: {again}"
    if o.stop_reason == "interrupted":
        console.print(f"[yellow]interrupted[/yellow]: {rerun}", highlight=False)
        return ExitCode.INTERRUPTED
    if o.failed:
        console.print(f"[red]crashed runs[/red]: {', '.join(o.failed)} (errors in {o.sweep_dir / 'failures'}); "
                      f"{rerun} (they start again)", highlight=False)
        return ExitCode.SOFTWARE
    if o.stop_reason and (o.not_started or o.interrupted):
        console.print(f"[yellow]stopped: global budget reached ({o.stop_reason})[/yellow]; running runs were "
                      f"{'drained' if not o.interrupted else 'stopped and stay resumable'}; {rerun} (with a higher budget)",
                      highlight=False)
        return ExitCode.TEMPFAIL
    if o.interrupted and not o.stop_reason:
        console.print(f"[yellow]unfinished[/yellow]: {o.interrupted} run(s) stopped because a model service stayed "
                      f"overloaded; they are not scored; {rerun}", highlight=False)
        return ExitCode.TEMPFAIL
    console.print(f"report: passagent report {o.sweep_dir}", highlight=False)
    if o.model_failures:
        console.print(f"[yellow]model-side failures[/yellow]: {', '.join(o.model_failures)} ended on a model error, "
                      "format errors or a refusal (their exit_reason in result.json)", highlight=False)
        return ExitCode.MODEL
    return ExitCode.OK
