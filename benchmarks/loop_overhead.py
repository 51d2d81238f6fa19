"""Overhead of the solve loop itself per step: LangGraph, the SQLite checkpointer, the fsync'ed
event log and the tool dispatch, without model latency or evaluations.

A scripted model (zero latency) makes N steps of cheap tool calls (``list_subgraphs``,
``write_pass``, ``read_pass``) on a real task; the wall time per step is the loop's own cost.

    python benchmarks/loop_overhead.py [--steps 100]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from passagent.agent.run.loop import SolveConfig
from passagent.agent.providers import ScriptedModel
from passagent.agent.run.solve import solve

REPO = Path(__file__).resolve().parent.parent
TASK = next((REPO.parent / "shared" / "data" / "passbench" / "typical").glob("b511*"))
PASS = (REPO / "examples" / "passes" / "b511_skip_single_cat.py").read_text()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cycle = [
        {"tool_calls": [{"name": "list_subgraphs", "arguments": {}}]},
        {"tool_calls": [{"name": "write_pass", "arguments": {"source": PASS}}]},
        {"tool_calls": [{"name": "read_pass", "arguments": {}}]},
    ]
    per_step = []
    for r in range(args.repeat):
        turns = [cycle[i % 3] for i in range(args.steps)]
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            result = solve(str(TASK), out=Path(out), run_id=f"overhead{r}", client=ScriptedModel(turns),
                           config=SolveConfig(max_steps=args.steps))
            wall = time.perf_counter() - t0
        assert result["steps"] == args.steps, result
        per_step.append(wall / args.steps * 1000)
    print("| steps | runs | loop overhead per step (ms), median | min | max |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {args.steps} | {args.repeat} | {statistics.median(per_step):.1f} | {min(per_step):.1f} | {max(per_step):.1f} |")


if __name__ == "__main__":
    main()
