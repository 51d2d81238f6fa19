"""Helpers shared by the sweep, report and export tests (importable: tests/ is on pytest's path).

:func:`evaluated_sweep` runs one small real sweep per test session (two scripted models on two
tiny synthetic tasks, one of them evaluating a pass on each) and hands the same folder to every
test that asks, so the export and report tests read real archives without paying for more
evaluations. It is memoised under the session's base temporary folder.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

from helpers import EXAMPLES, make_sample

GOOD = (EXAMPLES / "b511_skip_single_cat.py").read_text()
CAT_NORMALIZE = "y = torch.cat([x], 1)\nreturn (torch.nn.functional.normalize(y, p=2, dim=1),)"


def call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def turn(*calls: dict, text: str = "") -> dict:
    return {"text": text, "tool_calls": list(calls)}


def write_script(path: Path, turns: list[dict]) -> Path:
    path.write_text(json.dumps(turns))
    return path


def quitter_script(folder: Path) -> Path:
    """A scripted model that looks, reads the empty pass and gives up: no evaluation."""
    return write_script(folder / "quitter.json", [
        turn(call("list_subgraphs"), text="Looking at the task."),
        turn(call("read_pass")),
        turn(call("finish", summary="no idea")),
    ])


def solver_script(folder: Path) -> Path:
    """A scripted model that writes the single-cat pass, evaluates it once and finishes."""
    return write_script(folder / "solver.json", [
        turn(call("list_subgraphs"), text="Listing the subgraphs."),
        turn(call("write_pass", source=GOOD), call("evaluate_pass"), text="A one-tensor cat is a copy: drop it."),
        turn(call("finish", summary="dropped the single-input cat")),
    ])


def tiny_tasks(folder: Path) -> list[Path]:
    """Two one-subgraph tasks: one the single-cat pass matches (cat+normalize), one it does not."""
    a = make_sample(folder, "tiny_cat_norm", CAT_NORMALIZE, {"x": ([4, 16], "float32")})
    b = make_sample(folder, "tiny_add_mul", "return ((x + 1.0) * 2.0,)", {"x": ([4, 16], "float32")})
    return [a, b]


def fast_options(cache_root: Path):
    from passagent.tools.evaluation.evaluate import EvalOptions
    from passagent.tools.measure.timing import TimingConfig

    return EvalOptions(cache_root=cache_root, timing=TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.05))


def small_sweep(out: Path, sweep_id: str, scripts: Path, tasks: list[Path], cache_root: Path, **kwargs):
    """Plan a sweep of the solver and quitter scripted models over ``tasks`` (not run yet)."""
    from passagent.agent.run.loop import SolveConfig
    from passagent.agent.sweep.selectors import select_tasks
    from passagent.agent.sweep.runner import prepare

    models = [f"scripted:{solver_script(scripts)}", f"scripted:{quitter_script(scripts)}"]
    return prepare(out, sweep_id, models, select_tasks([str(t) for t in tasks]), solve_config=SolveConfig(max_steps=10),
                   eval_options=fast_options(cache_root), **kwargs)


def evaluated_sweep(tmp_path_factory, cache_root: Path) -> Path:
    """The session's shared small sweep folder (run on first use, local backend, 2 workers)."""
    base = tmp_path_factory.getbasetemp() / "shared-evaluated-sweep"
    base.mkdir(exist_ok=True)
    with open(base / ".lock", "w") as lock:  # pytest-xdist or two modules at once: run it once
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = base / "done"
        sweep_dir = base / "runs" / "shared"
        if not done.exists():
            from passagent.agent.sweep.runner import run_sweep

            spec = small_sweep(base / "runs", "shared", base, tiny_tasks(base / "tasks"), cache_root)
            outcome = run_sweep(spec, base / "runs", workers=2)
            assert outcome.finished == 4 and not outcome.failed, outcome
            done.write_text("ok")
    return sweep_dir


def evaluation_intervals(sweep_dir: Path) -> list[tuple[float, float, str]]:
    """(start, end, run) of every evaluation in a sweep, from the events (end time minus its wall time)."""
    out = []
    for events in sweep_dir.rglob("events.jsonl"):
        for line in events.read_text().splitlines():
            e = json.loads(line)
            if e.get("kind") == "tool_result" and e.get("evaluation"):
                out.append((e["time"] - e["evaluation"]["wall_s"], e["time"], str(events.parent)))
    return sorted(out)


def assert_no_overlap(intervals: list[tuple[float, float, str]]) -> None:
    for (s1, e1, r1), (s2, e2, r2) in zip(intervals, intervals[1:]):
        assert s2 >= e1 - 0.5, f"evaluations overlapped on one device: {r1} until {e1:.2f}, {r2} from {s2:.2f}"
