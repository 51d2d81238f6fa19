"""``passagent solve``: set up a run (model, task, tools, archive), run the loop, write the result.

A run lives in ``<out>/<run_id>/<task_id>/<model>/``. Its ``config.json`` is written first;
``--resume`` reads it back, so a resumed run continues with exactly the settings it started with.
"""

from __future__ import annotations

import dataclasses
import platform
import socket
import sys
import time
from pathlib import Path
from typing import Any

import torch

from .. import __version__
from ..tools.errors import PassagentError
from ..tools.evaluate import EvalOptions
from ..tools.schema import EvalResult
from ..tools.scoring import ScoringConfig
from ..tools.tasks import Task, load_task
from ..tools.timing import TimingConfig
from .archive import RunArchive, safe_name
from .condense import describe_task
from .confirm import evaluation_of
from .loop import EventCallback, LoopState, RunPaused, SolveConfig, SolveLoop
from .prompting import prompts_digest, render
from .protocols import Message, ModelClient, ModelConfigError, ToolSpec
from .toolbox import TOOL_PARAMETERS, PassWorkspace, Toolbox

RESULT_VERSION = "1.0"

# ``passagent solve``'s exit status per exit reason; any other reason (finished, patience,
# a budget) is 0. 75 is EX_TEMPFAIL (sysexits.h): try again later, with --resume.
EXIT_CODES = {"model_error": 3, "format_errors": 4, "refusal": 5, "model_unavailable": 75}
UNAVAILABLE = "model_unavailable"


def exit_code(result: dict[str, Any]) -> int:
    """The CLI's exit status for a :func:`solve` result (see ``EXIT_CODES``)."""
    return EXIT_CODES.get(str(result.get("exit_reason")), 0)


def prompt_device(options: EvalOptions) -> str:
    """The device the evaluations really run on, as the model is told it.

    With a ``device_pool`` (sweeps) each evaluation leases one of the pool: ``cpu:N`` slots run
    on ``cpu`` (:func:`passagent.tools.device_lease.leased_device`), GPUs on themselves.
    """
    if not options.device_pool:
        return options.device
    from ..tools.device_lease import leased_device

    names = list(dict.fromkeys(leased_device(d) for d in options.device_pool))
    return names[0] if len(names) == 1 else "one of " + ", ".join(names) + " (whichever is free)"


def resolve_client(spec: str, models_file: Path | None = None, check_reachable: bool = True) -> ModelClient:
    """The model client for ``spec`` (``builtin``, a models-file name, ``openai:...``...).

    Raises:
        ModelConfigError: unknown model, missing API key, or (with ``check_reachable``) an
            unreachable server: one line, before any work starts.
    """
    if spec == "builtin":
        from .builtin.policy import BuiltinPolicy

        return BuiltinPolicy()
    from .providers import preflight, resolve_model

    client = resolve_model(spec, models_file)
    if check_reachable:
        preflight(client)
    return client


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime()) + f"-{int(time.time() * 1000) % 1000:03d}"


def run_dir(out: Path, run_id: str, task_id: str, model_name: str) -> Path:
    return Path(out) / safe_name(run_id) / safe_name(task_id) / safe_name(model_name)


def _options_to_json(options: EvalOptions) -> dict[str, Any]:
    data = dataclasses.asdict(options)
    data["cache_root"] = str(options.cache_root) if options.cache_root else None
    data["lock_dir"] = str(options.lock_dir) if options.lock_dir else None
    return data


def _options_from_json(data: dict[str, Any]) -> EvalOptions:
    data = dict(data)
    data["scoring"] = ScoringConfig(**data["scoring"])
    data["timing"] = TimingConfig(**data["timing"]) if data.get("timing") else None
    data["cache_root"] = Path(data["cache_root"]) if data.get("cache_root") else None
    data["lock_dir"] = Path(data["lock_dir"]) if data.get("lock_dir") else None
    return EvalOptions(**data)


def solve(
    task_spec: str,
    model_spec: str = "builtin",
    *,
    out: Path = Path("runs"),
    run_id: str | None = None,
    resume: bool = False,
    config: SolveConfig | None = None,
    eval_options: EvalOptions | None = None,
    models_file: Path | None = None,
    client: ModelClient | None = None,
    on_event: EventCallback | None = None,
    check_reachable: bool = True,
) -> dict[str, Any]:
    """Run ``passagent solve`` and return its ``result.json`` contents.

    Args:
        task_spec: built-in task id or task folder.
        model_spec: model to drive (``builtin`` by default).
        out: archive root (``runs/``).
        run_id: the run's id (default: a timestamp); with ``resume`` it names the run to resume.
        resume: continue the run ``run_id`` from its checkpoint with its recorded settings.
        config: stopping rule and budgets (ignored on resume: the recorded ones are used).
        eval_options: harness options (likewise); default: CPU; the profile_pass tool profiles on demand.
        models_file: where short model names are defined.
        client: use this client instead of resolving ``model_spec`` (tests, embedding).
        on_event: live-view callback ``(node, state)``.

    Returns:
        the ``result.json`` contents; or, when the model service stayed overloaded for its whole
        retry budget, ``{"exit_reason": "model_unavailable", "resumable": True, ...}`` and no
        ``result.json`` is written (resume the run later with ``resume=True``).

    Raises:
        TaskError / PassagentError: bad task or options, before any work starts.
        ModelConfigError: unknown model, missing key, unreachable server.
    """
    task = load_task(task_spec)
    if resume:
        if not run_id:
            raise PassagentError("--resume needs --run-id naming the run to resume")
        if client is None:
            client = resolve_client(model_spec, models_file, check_reachable)
        archive = RunArchive(run_dir(out, run_id, task.id, client.name))
        recorded = archive.read_json("config.json")
        if recorded is None:
            raise PassagentError(f"{archive.root}: no run to resume (config.json is missing)")
        config = SolveConfig.model_validate(recorded["solve"])
        eval_options = _options_from_json(recorded["eval_options"])
    else:
        client = client or resolve_client(model_spec, models_file, check_reachable)
        if check_reachable and callable(getattr(client, "probe", None)):
            client.probe(_tool_specs(eval_options or EvalOptions()))  # before anything is written
        run_id = run_id or new_run_id()
        root = run_dir(out, run_id, task.id, client.name)
        if (root / "config.json").exists():
            raise PassagentError(f"{root} already holds a run; use --resume or another --run-id")
        archive = RunArchive(root)
        config = config or SolveConfig()
        eval_options = eval_options or EvalOptions()

    toolbox = Toolbox(task, PassWorkspace(archive.root / "workspace"), eval_options)
    if resume:  # profile_pass reuses the latest evaluation, as it would have without the restart
        toolbox.last_evaluation = _latest_evaluation(archive)
    else:  # the tools offered are recorded so exports carry their exact schemas
        record = _config_record(run_id, task, model_spec, client, config, eval_options)
        archive.write_json("config.json", {**record, "tools": [s.model_dump() for s in toolbox.specs()]})
    loop = SolveLoop(client, toolbox, archive, config, on_event)
    device = prompt_device(eval_options)
    system = render("system.md.j2", device=device, baseline=eval_options.baseline,
                    failure_penalty=eval_options.scoring.failure_penalty, patience=config.patience,
                    max_steps=config.max_steps, budget_usd=config.budget_usd,
                    discard_regressions=config.discard_regressions)
    user = render("task.md.j2", task_id=task.id, n_subgraphs=len(task.subgraphs), device=device,
                  baseline=eval_options.baseline, subgraph_listing=describe_task(task))
    try:
        state = loop.run([Message(role="system", content=system), Message(role="user", content=user)],
                         resume=resume)
    except RunPaused as exc:
        # No result.json: the folder stays "partial", which --resume and sweeps continue.
        n = sum(1 for e in archive.events if e.get("kind") == "run_stopped")
        archive.record(f"stopped:{n}", "run_stopped", reason=UNAVAILABLE, error=str(exc))
        archive.close()
        return {"run_id": run_id, "task_id": task.id, "model": client.name, "exit_reason": UNAVAILABLE,
                "resumable": True, "error": str(exc), "run_dir": str(archive.root)}
    result = _result_record(run_id, task, client, state, archive)  # type: ignore[arg-type]
    archive.record("end", "run_end", exit_reason=result["exit_reason"], best_as=result["best_as"])
    archive.write_json("result.json", result)
    archive.close()
    return result


def _tool_specs(options: EvalOptions) -> list[ToolSpec]:
    # The specs Toolbox.specs() offers, without a workspace (for the server probe).
    return [ToolSpec(name=name, description=render(f"tools/{name}.md.j2", draws=options.draws), parameters=params)
            for name, params in TOOL_PARAMETERS.items()]


def _latest_evaluation(archive: RunArchive) -> EvalResult | None:
    latest = None
    for e in archive.events:
        if "evaluation" in e:
            latest = e["evaluation"]
    try:
        return EvalResult.model_validate(latest) if latest is not None else None
    except ValueError:  # recorded by another schema version: profile_pass evaluates again
        return None


def _config_record(run_id: str, task: Task, model_spec: str, client: ModelClient, config: SolveConfig,
                   eval_options: EvalOptions) -> dict[str, Any]:
    model_config = client.config() if hasattr(client, "config") else {"name": client.name}
    return {
        "run_id": run_id,
        "task_id": task.id,
        "task_path": str(task.path),
        "model_spec": model_spec,
        "model": model_config,
        "solve": config.model_dump(),
        "eval_options": _options_to_json(eval_options),
        "versions": {"passagent": __version__, "torch": torch.__version__, "python": sys.version.split()[0]},
        "prompts_sha256": prompts_digest(),
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "created_at": time.time(),
    }


def _result_record(run_id: str, task: Task, client: ModelClient, state: LoopState, archive: RunArchive) -> dict[str, Any]:
    # The evaluation best_as came from (a confirmed version has two; its score is the lower).
    best_eval = evaluation_of(archive.events, state.get("best_version"), state.get("best_as"))
    return {
        "schema_version": RESULT_VERSION,
        "run_id": run_id,
        "task_id": task.id,
        "model": client.name,
        "exit_reason": state.get("exit_reason"),
        "summary": state.get("summary"),
        "error": state.get("error"),
        "best_as": state.get("best_as"),
        "best_version": state.get("best_version"),
        "best_scores": best_eval["scores"] if best_eval else None,
        "best_other_scores": best_eval.get("other_scores") if best_eval else None,
        "best_subgraphs": [
            {k: s[k] for k in ("name", "status", "matches", "speedup_vs_eager", "speedup_vs_inductor")}
            for s in best_eval["subgraphs"]
        ] if best_eval else None,
        "evaluations": state.get("evaluations", 0),
        "steps": state.get("step", 0),
        "input_tokens": state.get("input_tokens", 0),
        "output_tokens": state.get("output_tokens", 0),
        "cost_usd": state.get("cost_usd", 0.0),
        "wall_s": state.get("wall_s", 0.0),
        "finished_at": time.time(),
    }


__all__ = ["solve", "resolve_client", "exit_code", "prompt_device", "EXIT_CODES", "ModelConfigError"]
