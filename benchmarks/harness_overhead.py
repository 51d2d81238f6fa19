"""Does the harness's work between timed calls slow the timed calls? End-to-end times of eager and
default Inductor on one task's subgraphs, timed in one process with the evaluation's own
interleaved timing (:func:`passagent.tools.timing.time_interleaved`) under four arms, back to back:

- ``bare``: fresh argument buffers each call, nothing after a call;
- ``guard``: the process guard's per-call check (references and process flags) after every call;
- ``checks``: the guard, the output comparison with eager's reference and the input-write
  comparison after every call (what an evaluation does after each call of every variant);
- ``bare again``: the first arm repeated, for the host's drift over the run.

If ``checks`` is much slower than ``bare`` while ``bare again`` agrees with ``bare``, the per-call
checks inflate the measured times; if all arms agree, they do not.

Usage: ``python benchmarks/harness_overhead.py [TASK] [--device cuda] [--subgraphs 0,1]``
(TASK: a task id or folder; default the README's shared task b511).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

import torch

from passagent.tools.correctness import compare_outputs
from passagent.tools.inputs import clone_inputs, synthesize_inputs
from passagent.tools.integrity import check_input_writes, written_inputs
from passagent.tools.process_guard import ProcessGuard
from passagent.tools.tasks import load_task
from passagent.tools.timing import TimingConfig, time_interleaved
from passagent.tools.worker import build_module

SHARED = Path(os.environ.get("PASSAGENT_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
B511 = str(SHARED / "data/passbench/typical/b511f7af01dcf2b5b3747462c145cccad89b7dc11f81aab50d3f0fc0f0b3ee5c")


def arms_for(sg, device: torch.device, config: TimingConfig) -> dict[str, dict[str, float]]:
    eager = build_module(sg, device, "eager")
    inductor = torch.compile(build_module(sg, device, "inductor"))
    draws = [synthesize_inputs(sg, k, device=device) for k in range(3)]
    refs, writes = [], []
    with torch.no_grad():
        for d in draws:
            args = clone_inputs(d)
            refs.append(eager(*args))
            writes.append(written_inputs(d, args))
            inductor(*clone_inputs(d))  # compile outside the timed arms
    guard = ProcessGuard()

    def fresh(i: int) -> list:
        return clone_inputs(draws[i % len(draws)])

    def after_guard(name, i, out, args) -> None:
        guard.check_call()

    def after_checks(name, i, out, args) -> None:
        guard.check_call()
        k = i % len(draws)
        compare_outputs(out, refs[k])
        check_input_writes(draws[k], args, writes[k])

    rows = {}
    for arm, after in (("bare", None), ("guard", after_guard), ("checks", after_checks), ("bare again", None)):
        with torch.no_grad():
            stats = time_interleaved({"eager": eager, "inductor": inductor}, fresh, device=device, config=config,
                                     after_call=after)
        rows[arm] = {n: s.median_us for n, s in stats.items()}
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("task", nargs="?", default=B511)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--subgraphs", default="0", help="comma-separated subgraph indices")
    opts = p.parse_args(argv)
    task = load_task(os.path.expandvars(opts.task))
    device = torch.device(opts.device)
    base = TimingConfig.for_device(device)
    config = TimingConfig(**{**base.__dict__, "graph_replay": False}) if device.type == "cuda" else base
    print(f"task {task.id}, device {opts.device} ({torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu'}), "
          f"torch {torch.__version__}; median end-to-end µs")
    print(f"{'subgraph':10} {'arm':11} {'eager':>9} {'inductor':>9} {'eager/ind':>9}")
    ratios: dict[str, list[float]] = {}
    for i in (int(x) for x in opts.subgraphs.split(",")):
        sg = task.subgraphs[i]
        for arm, t in arms_for(sg, device, config).items():
            print(f"{sg.name:10} {arm:11} {t['eager']:9.1f} {t['inductor']:9.1f} {t['eager'] / t['inductor']:9.3f}")
            ratios.setdefault(arm, []).append(t["inductor"])
    for arm, ts in ratios.items():
        print(f"median Inductor µs over subgraphs, {arm}: {statistics.median(ts):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
