"""Where an evaluation worker's timing step goes: one evaluation run in this process under cProfile.

The worker (``tools/worker.Worker``) is run in-process, without the sandbox, the handshake or a
lease, on the request :func:`passagent.tools.evaluate.evaluate_pass` would send it, so its steps are
the ones an evaluation runs. Prints, per subgraph, the timing step's split
(``SubgraphResult.timing_stop``: warm-up, rounds and the checks inside them, CUDA-graph replays,
the secret draws, the checks after timing) and then the functions with the most cumulative time
of the harness's timing-step modules and the timing step's callees, so a slow round can be traced to what it calls.

    python benchmarks/timing_step_profile.py --device cuda --task b511 --pass examples/passes/b511_pooler_dir
    python benchmarks/timing_step_profile.py --device cpu --task b511 --pass examples/passes/b511_pooler_dir --subgraphs 0

Profiling slows Python-heavy steps (each Python call pays the profiler's hook), so the seconds
printed are larger than an unprofiled run's; the shares between callers are what it is for.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Functions of the harness's timing step, for the cumulative listing.
HARNESS = r"tools/(timing|worker|correctness|integrity|inputs|process_guard|physics_floor)\.py"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--task", default="b511", help="a shared PassBench task's id prefix, a built-in task id, or a path")
    ap.add_argument("--pass", dest="pass_path", default=str(REPO / "examples" / "passes" / "b511_pooler_dir"))
    ap.add_argument("--subgraphs", default="all", help="comma-separated subgraph indices, or 'all'")
    ap.add_argument("--top", type=int, default=30, help="functions listed by cumulative time")
    args = ap.parse_args()

    from passagent.tools.evaluate import EvalOptions
    from passagent.tools.passes import pass_digest, source_files

    task = _load(args.task)
    options = EvalOptions(device=args.device, baseline="inductor")
    indices = list(range(len(task.subgraphs))) if args.subgraphs == "all" else [int(x) for x in args.subgraphs.split(",")]
    pass_path = Path(args.pass_path).resolve()
    with tempfile.TemporaryDirectory(prefix="passagent-profile-") as tmp:
        events = Path(tmp) / "events.jsonl"
        request = {
            "task_path": str(task.path), "task_id": task.id, "pass_path": str(pass_path),
            "pass_digest": pass_digest(pass_path), "pass_files": [str(f) for f in source_files(pass_path)],
            "device": args.device, "draws": options.draws, "seed": options.seed,
            "degenerate_std": options.degenerate_std, "timing": asdict(options.timing_config()),
            "need_inductor": {str(i): True for i in indices}, "heldout_shapes": options.heldout_shapes,
            "integrity_mode": options.integrity_mode, "profile": False, "profile_calls": options.profile_calls,
            "subgraph_indices": indices, "events_path": str(events), "handshake": False,
        }
        os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(Path(tmp) / "inductor"))
        from passagent.tools.worker import Worker

        # Profiling from before the worker's guards take their snapshot: the process guard flags a
        # profiler installed later (sys.setprofile) as a process-wide change made by the candidate.
        profiler = cProfile.Profile()
        profiler.enable()
        try:
            Worker(request).run()
        finally:
            profiler.disable()
        results = [json.loads(line) for line in events.read_text().splitlines() if line.strip()]
    print(f"# timing step of {task.id} on {args.device} (profiled: seconds are inflated)")
    print("| subgraph | status | rounds (why) | timing step s | inputs | warm-up | rounds | checks in rounds | graphs | after |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for ev in results:
        if ev.get("event") != "result":
            continue
        stop = ev.get("timing_stop") or {}
        cells = [f"{stop.get(k, float('nan')):.3f}" for k in ("inputs_s", "warmup_s", "seconds", "checks_s", "graph_s", "after_s")]
        print(f"| {ev['subgraph']} | {ev.get('failure_class') or 'correct'} | {stop.get('rounds')} ({stop.get('reason')}) | "
              f"{(ev.get('phase_s') or {}).get('timing', 0.0):.3f} | " + " | ".join(cells) + " |")
        if ev.get("failure_class") == "integrity":
            print(f"|   | {ev.get('integrity_rule')}: {ev.get('message', '')[:200]} |")
    print()
    stats = pstats.Stats(profiler)
    # The timing step's own callees (the whole run was profiled, compiles included).
    stats.sort_stats("cumulative").print_callees(r"worker.py:\d+\(_finish\)")
    stats.sort_stats("cumulative").print_callees(r"timing.py:\d+\(time_interleaved\)")
    stats.sort_stats("cumulative").print_stats(HARNESS, args.top)
    stats.sort_stats("tottime").print_stats(args.top)
    return 0


def _load(arg: str):  # type: ignore[no-untyped-def]
    from passagent.tools.tasks import load_task

    shared = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared")) / "data" / "passbench"
    if Path(arg).exists():
        return load_task(Path(arg))
    hits = sorted(shared.glob(f"*/{arg}*"))
    if hits:
        return load_task(hits[0])
    return load_task(arg)


if __name__ == "__main__":
    sys.exit(main())
