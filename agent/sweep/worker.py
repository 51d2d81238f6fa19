"""One run of a sweep, in its own process: ``python -m passagent.agent.sweep.worker SPEC_JSON``.

Each (model, task, seed) of a sweep runs :func:`~passagent.agent.run.solve.solve` in a fresh
process, so a crash, a hang or a stop by the sweep ends that run only, and every run's
evaluations, IR inspections and imports are its own. The sweep stops a run with SIGTERM (or
SIGINT on Ctrl-C): the handler kills the evaluation workers this process started (they run in
their own sessions, out of reach of a signal to our group) and exits; the run stays resumable
from its checkpoint and event log.

A run that raises (a task that does not load, a model that cannot be resolved) leaves
``<sweep>/failures/<task>__<model>.json`` with the error; a finished run removes it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Protocol

from ...tools.process.children import kill_all
from ..protocols import Message, ModelClient, ModelResponse, ToolSpec


def seeded_name(name: str, seed: int) -> str:
    """The client name that names a seed's run folder: ``name`` for seed 0, ``name+sK`` else."""
    return name if seed == 0 else f"{name}+s{seed}"


class SeededClient:
    """Wraps a model client for one seed of a sweep.

    The name gains ``+sK`` (K >= 1), so the runs of different seeds live in different folders;
    ``config()`` records the base name and the seed. Providers that take a sampling seed
    (OpenAI and OpenAI-compatible servers) get ``seed = base + K``; the built-in policy and
    the scripted model are deterministic and ignore it; Anthropic's API has no seed.
    """

    def __init__(self, inner: ModelClient, seed: int, seeds: int):
        self.inner = inner
        self.seed = seed
        self.name = seeded_name(inner.name, seed)
        self.priced = inner.priced
        entry = getattr(inner, "entry", None)  # a hosted model's settings (the sampling seed lives there)
        if seeds > 1 and entry is not None and getattr(entry, "provider", None) in ("openai", "compat"):
            inner.entry = entry.model_copy(update={"seed": (entry.seed or 0) + seed})  # type: ignore[attr-defined]

    @property
    def context_window(self) -> int | None:
        return self.inner.context_window

    @property
    def max_tokens(self) -> int | None:
        return self.inner.max_tokens

    def config(self) -> dict[str, Any]:
        return {**self.inner.config(), "name": self.name, "base_name": self.inner.name, "sweep_seed": self.seed}

    def preflight(self, timeout_s: float = 10.0) -> None:
        self.inner.preflight(timeout_s)

    def probe(self, tools: list[ToolSpec], timeout_s: float = 60.0) -> None:
        self.inner.probe(tools, timeout_s)

    def complete(self, messages: list[Message], tools: list[ToolSpec]) -> ModelResponse:
        return self.inner.complete(messages, tools)

    def __getattr__(self, item: str) -> Any:  # preflight, base_url... of the wrapped client
        return getattr(self.inner, item)


def kill_descendants() -> None:
    """SIGKILL every process this one started, and their process groups (evaluation workers)."""
    kill_all()


def _on_stop(signum: int, _frame: Any) -> None:
    kill_descendants()
    os._exit(128 + signum)


# The worker's exit status for a run that stopped resumable because the model service stayed
# overloaded (EX_TEMPFAIL, as ``passagent solve`` uses): the sweep leaves it unfinished.
UNFINISHED_RC = 75


def failure_path(sweep_dir: Path, key: str) -> Path:
    return sweep_dir / "failures" / (key.replace("/", "__") + ".json")


def run_one(spec: dict[str, Any]) -> dict[str, Any]:
    """Run (or resume) one sweep run described by ``spec`` (see :func:`.runner.run_spec`).

    Returns:
        The run's ``result.json`` contents.

    Raises:
        Whatever ``solve`` raises (bad task, unusable model); the caller records it.
    """
    from ..run.loop import SolveConfig
    from ..run.solve import _options_from_json, resolve_client, solve

    inner = resolve_client(spec["model_spec"], Path(spec["models_file"]) if spec.get("models_file") else None,
                           check_reachable=False)
    client = SeededClient(inner, spec["seed"], spec["seeds"])
    return solve(
        spec["task_spec"], spec["model_spec"], out=Path(spec["out"]), run_id=spec["sweep_id"], resume=spec["resume"],
        config=SolveConfig.model_validate(spec["solve"]), eval_options=_options_from_json(spec["eval_options"]),
        client=client, check_reachable=False,
    )


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the spec given as JSON on the command line; exit 0 when it finished."""
    argv = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGTERM, _on_stop)
    signal.signal(signal.SIGINT, _on_stop)
    spec = json.loads(argv[0])
    failure = failure_path(Path(spec["sweep_dir"]), spec["key"])
    try:
        result = run_one(spec)
    except BaseException as exc:  # noqa: BLE001  (everything is recorded for the sweep's report)
        failure.parent.mkdir(parents=True, exist_ok=True)
        failure.write_text(json.dumps({
            "key": spec["key"], "error": f"{type(exc).__name__}: {exc}", "time": time.time(),
            "traceback": traceback.format_exc()[-4000:],
        }, indent=2))
        print(f"run {spec['key']} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    failure.unlink(missing_ok=True)
    if result.get("resumable"):
        print(f"run {spec['key']} stopped, resumable: {result.get('error')}")
        return UNFINISHED_RC
    from ..numbers import result_words

    print(f"run {spec['key']} finished: {result.get('exit_reason')}, {result_words(result)}")
    return 0


class Executor(Protocol):
    """Runs sweep runs somewhere: local processes (:class:`LocalExecutor`) or Ray tasks."""

    def start(self, spec: dict[str, Any], log: Path) -> Any: ...
    def poll(self, handle: Any) -> int | None: ...
    def stop(self, handle: Any) -> None: ...
    def close(self) -> None: ...


class LocalExecutor:
    """Each run is a ``python -m passagent.agent.sweep.worker`` child in our process group (so a
    signal to the sweep's group reaches it), with its output in ``logs/``."""

    def start(self, spec: dict[str, Any], log: Path) -> subprocess.Popen[bytes]:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as fh:
            return subprocess.Popen([sys.executable, "-m", "passagent.agent.sweep.worker", json.dumps(spec)],
                                    stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def poll(self, handle: subprocess.Popen[bytes]) -> int | None:
        return handle.poll()

    def stop(self, handle: subprocess.Popen[bytes], grace_s: float = 15.0) -> None:
        if handle.poll() is None:
            handle.send_signal(signal.SIGTERM)  # the worker kills its evaluation workers, then exits
            try:
                handle.wait(grace_s)
            except subprocess.TimeoutExpired:
                handle.kill()
                handle.wait()

    def close(self) -> None:
        pass


if __name__ == "__main__":
    sys.exit(main())
