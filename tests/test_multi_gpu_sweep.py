"""benchmarks/multi_gpu_sweep.py's analysis: matching candidates across sweeps, agreement, checks.

The script itself runs real sweeps (see its docstring for the dry run on the CPU); here its
analysis runs on made-up evaluation records and lease logs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from passagent.tools.device_lease import busy_profile

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "multi_gpu_sweep.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("multi_gpu_sweep", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def evaluation(task: str, digest: str, device: str, times: list[float], seed: int = 0, version: int = 1,
               graph: list[float] | None = None) -> dict:
    """An evaluation record; ``graph``: the candidate's CUDA-graph replay medians (default: ``times``)."""
    graph = graph or times
    return {"task": task, "seed": seed, "version": version, "pass_sha256": digest, "device": device,
            "subgraphs": [{"index": i, "dtypes": ["float16"],
                           "times": {"candidate": {"median_us": t, "graph_median_us": g}, "eager": {"median_us": 100.0}}}
                          for i, (t, g) in enumerate(zip(times, graph))]}


def lease(device: str, start: float, end: float) -> dict:
    return {"device": device, "host": "h", "start": start, "end": end, "start_mono": start, "end_mono": end}


def phase(devices: list[str], evals: list[dict], leases: list[dict], finished: int, wall: float, procs: int = 2) -> dict:
    return {"devices": devices, "evaluation_records": evals, "leases": leases, "busy": busy_profile(leases, (0.0, wall)),
            "complete": True, "solves_per_hour": finished / wall * 3600,
            "processes": {"solve run": {"processes": procs, "multicast_as_parent": procs, "cuda_visible_devices": ["None"]}}}


def test_candidates_are_matched_by_task_seed_digest_and_subgraph(bench) -> None:
    single = [evaluation("t1", "aa", "cuda:0", [100.0, 200.0]), evaluation("t1", "aa", "cuda:0", [102.0, 200.0], seed=1),
              evaluation("t2", "bb", "cuda:0", [50.0])]
    multi = [evaluation("t1", "aa", "cuda:1", [101.0, 210.0]), evaluation("t1", "aa", "cuda:0", [102.0, 200.0], seed=1),
             evaluation("t2", "cc", "cuda:1", [50.0])]  # another pass: not comparable
    rows = bench.compare(single, multi)
    assert [(r["task"], r["seed"], r["subgraph"], r["device"]) for r in rows] == [
        ("t1", 0, 0, "cuda:1"), ("t1", 0, 1, "cuda:1"), ("t1", 1, 0, "cuda:0"), ("t1", 1, 1, "cuda:0")]
    assert [round(r["diff"], 4) for r in rows] == [0.01, 0.05, 0.0, 0.0]
    by_device = bench.agreement(rows, 0.03)
    assert by_device["cuda:1"]["within"] == 1 and by_device["cuda:1"]["worst_abs"] == pytest.approx(0.05)
    assert by_device["cuda:0"] == {"pairs": 2, "median_abs": 0.0, "mean": 0.0, "worst_abs": 0.0, "within": 2}


def test_checks_pass_only_when_every_claim_holds(bench) -> None:
    single_evals = [evaluation("t1", "aa", "cuda:0", [100.0]), evaluation("t2", "bb", "cuda:0", [100.0])]
    multi_evals = [evaluation("t1", "aa", "cuda:0", [101.0]), evaluation("t2", "bb", "cuda:1", [99.0])]
    host_noise = [evaluation("t1", "aa", "cuda:0", [101.0]), evaluation("t2", "bb", "cuda:1", [90.0], graph=[99.5])]
    single = phase(["cuda:0"], single_evals, [lease("cuda:0", 0, 4), lease("cuda:0", 4, 8)], finished=2, wall=10.0)
    multi = phase(["cuda:0", "cuda:1"], multi_evals, [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)], finished=2, wall=5.0)
    a = bench.analyse({"phases": {"single": single, "multi": multi}}, tolerance=0.03, min_ratio=1.8)
    assert len(a["checks"]) == 6 and all(c["ok"] for c in a["checks"]), a["checks"]
    assert a["throughput_ratio"] == pytest.approx(2.0)
    # End-to-end 10% off but the same device time: only the end-to-end check fails.
    noisy = phase(["cuda:0", "cuda:1"], host_noise, [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)], finished=2, wall=5.0)
    a = bench.analyse({"phases": {"single": single, "multi": noisy}}, tolerance=0.03, min_ratio=1.8)
    assert [c["check"] for c in a["checks"] if not c["ok"]] == [
        "each candidate's median end-to-end time within 3% of its single-device median, on every device"]

    slow = phase(["cuda:0", "cuda:1"], [evaluation("t1", "aa", "cuda:0", [104.0])], [lease("cuda:0", 0, 4), lease("cuda:0", 3, 6)],
                 finished=2, wall=8.0)
    a = bench.analyse({"phases": {"single": single, "multi": slow}}, tolerance=0.03, min_ratio=1.8)
    failed = sorted(c["check"] for c in a["checks"] if not c["ok"])
    assert failed == sorted([
        "2 evaluations at once, one per device, in the 2-device sweep",          # both leases were cuda:0's...
        "at most one evaluation per device at a time (every sweep)",             # ...and they overlapped
        "candidates compared on every device (device time (CUDA-graph replay))",  # nothing ran on cuda:1
        "candidates compared on every device (end-to-end time)",
        "each candidate's median device time (CUDA-graph replay) within 3% of its single-device median, on every device",
        "each candidate's median end-to-end time within 3% of its single-device median, on every device",  # 4% off
        "throughput at least 1.8x the single-device sweep's",                    # 1.25x
    ])


def test_a_resumed_state_keeps_the_busy_profiles_integer_keys(bench, tmp_path: Path) -> None:
    import json

    leases = [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)]
    multi = phase(["cuda:0", "cuda:1"], [evaluation("t1", "aa", "cuda:1", [100.0])], leases, finished=1, wall=5.0)
    (tmp_path / "state.json").write_text(json.dumps({"phases": {"multi": multi}}, default=str))
    restored = bench.load_state(tmp_path / "state.json")["phases"]["multi"]["busy"]
    assert restored["fraction_with_devices_busy"] == multi["busy"]["fraction_with_devices_busy"]
    assert restored["fraction_with_devices_busy"].get(2, 0.0) > 0.5  # what analyse() and the table read


def test_lease_time_is_split_by_purpose_and_evaluation_time_by_step(bench) -> None:
    leases = [lease("cuda:0", 0.0, 22.0) | {"purpose": "inspect_ir"}, lease("cuda:0", 22.0, 60.0),
              lease("cuda:1", 0.0, 20.0) | {"purpose": "inspect_ir"}, lease("cuda:1", 20.0, 30.0)]
    assert bench.lease_time_by_purpose(leases) == {
        "evaluation": {"leases": 2, "total_s": 48.0, "median_s": 24.0},
        "inspect_ir": {"leases": 2, "total_s": 42.0, "median_s": 21.0}}
    records = [{"subgraphs": [{"phase_s": {"timing": 3.0, "inductor": 5.0}}, {"phase_s": {"timing": 4.0}}]},
               {"subgraphs": [{"phase_s": {"inductor": 1.0, "heldout_shape": 0.5}}, {}]}]
    steps = bench.evaluation_steps(records)
    assert steps == {"timing": 7.0, "inductor": 6.0, "heldout_shape": 0.5} and list(steps) == ["timing", "inductor", "heldout_shape"]
