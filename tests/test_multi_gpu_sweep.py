"""benchmarks/multi_gpu_sweep.py's analysis (benchmarks/multi_gpu_analysis.py): matching
candidates across sweeps, agreement, host speed, checks, and the script's ``--report``.

The script itself runs real sweeps (see its docstring for the dry run on the CPU); here its
analysis runs on made-up evaluation records and lease logs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from passagent.tools.device_lease import busy_profile

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "multi_gpu_sweep.py"
ANALYSIS = SCRIPT.with_name("multi_gpu_analysis.py")


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    """The analysis module."""
    return load(ANALYSIS)


@pytest.fixture(scope="module")
def script():
    """The script (it imports the analysis from beside itself)."""
    return load(SCRIPT)


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
    assert len(a["checks"]) == 7 and all(c["ok"] for c in a["checks"]), a["checks"]
    assert a["throughput_ratio"] == pytest.approx(2.0)
    # End-to-end 10% off but the same device time: the end-to-end check fails, and with it the speedup vs
    # eager computed from end-to-end times (eager's stayed at 100 us).
    noisy = phase(["cuda:0", "cuda:1"], host_noise, [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)], finished=2, wall=5.0)
    a = bench.analyse({"phases": {"single": single, "multi": noisy}}, tolerance=0.03, min_ratio=1.8)
    assert [c["check"] for c in a["checks"] if not c["ok"]] == [
        "each candidate's median end-to-end time within 3% of its single-device median, on every device",
        "each candidate's speedup vs eager within 3% of its single-device value"]

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
        "each candidate's speedup vs eager within 3% of its single-device value",  # 100/104 against 100/100
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


# --- task order, the schedule model, the speedup and p10 comparisons ---------------------------------------


def timed(task: str, digest: str, device: str, subgraphs: list[dict], seed: int = 0) -> dict:
    """An evaluation record with each subgraph's ``times`` given as they are ({variant: {field: us}})."""
    return {"task": task, "seed": seed, "version": 1, "pass_sha256": digest, "device": device,
            "subgraphs": [{"index": i, "dtypes": ["float16"], "times": times} for i, times in enumerate(subgraphs)]}


def task_lease(task: str, start: float, end: float, device: str = "cuda:0", purpose: str | None = None) -> dict:
    return lease(device, start, end) | {"task": task} | ({"purpose": purpose} if purpose else {})


def test_warmup_lease_seconds_order_the_tasks_longest_first(bench) -> None:
    warmup_leases = [
        task_lease("t_a", 0, 4), task_lease("t_a", 10, 16),                               # 10 s
        task_lease("t_b", 0, 10, "cuda:1"), task_lease("t_b", 10, 20, "cuda:1"), task_lease("t_b", 20, 30, "cuda:1"),  # 30 s
        task_lease("t_c", 16, 26),                                                        # 10 s: ties with t_a
        task_lease("t_d", 30, 80, purpose="inspect_ir"),                                  # an IR inspection only: no cost
        task_lease("t_x", 0, 500),                                                        # not one of the tasks
    ]
    tasks = ["t_a", "t_c", "t_e", "t_b", "t_d"]
    assert bench.lease_seconds_by_task(warmup_leases, ("evaluation",)) == {"t_a": 10.0, "t_b": 30.0, "t_x": 500.0, "t_c": 10.0}
    assert bench.lease_seconds_by_task(warmup_leases)["t_d"] == 50.0  # every purpose
    order = bench.choose_task_order(tasks, "warmup-cost", {"leases": warmup_leases})
    # Longest first; t_a and t_c tie and keep their given order; t_e and t_d (no evaluation lease) follow as given.
    assert order["mode"] == "warmup-cost" and order["tasks"] == ["t_b", "t_a", "t_c", "t_e", "t_d"]
    assert order["warmup_lease_s"] == {"t_a": 10.0, "t_b": 30.0, "t_c": 10.0} and order["not_in_warmup"] == ["t_e", "t_d"]
    assert bench.longest_first(["t_c", "t_a"], {"t_a": 10.0, "t_c": 10.0}) == ["t_c", "t_a"]  # ties: as given
    # --order given, no warm-up, a warm-up without leases: as given.
    assert bench.choose_task_order(tasks, "given", {"leases": warmup_leases})["tasks"] == tasks
    for warmup in (None, {"leases": []}):
        fallback = bench.choose_task_order(tasks, "warmup-cost", warmup)
        assert fallback["mode"] == "given" and fallback["tasks"] == tasks
    # A phase recorded before task orders were ran in its given order.
    assert bench.recorded_task_order({"tasks": ["t_c", "t_a"]})["tasks"] == ["t_c", "t_a"]


def test_list_scheduling_makespan_follows_the_order(bench) -> None:
    # Longest first is a heuristic: on 2 devices [3, 3, 2, 2, 2] ends at 7 (3+2+2 | 3+2), while the
    # order [3, 2, 2, 3, 2] gives the optimum 6 (3+3 | 2+2+2).
    assert bench.list_schedule_makespan([3, 3, 2, 2, 2], 2) == 7.0
    assert bench.list_schedule_makespan([3, 2, 2, 3, 2], 2) == 6.0
    assert bench.list_schedule_makespan([2, 2, 2, 3, 3], 2) == 7.0
    # A long job last is the tail longest-first avoids: 6 against 4.
    assert bench.list_schedule_makespan([1, 1, 1, 1, 4], 2) == 6.0
    assert bench.list_schedule_makespan([4, 1, 1, 1, 1], 2) == 4.0
    assert bench.list_schedule_makespan([3, 3, 2, 2, 2], 1) == 12.0
    assert bench.list_schedule_makespan([], 2) == 0.0


def test_predicted_makespan_from_the_single_device_leases(bench) -> None:
    # 1-device sweep started at 100 s; first lease 5 s later; a, b, c, d 1 s each, e three evaluations (4 s).
    leases = [task_lease("a", 105, 106), task_lease("b", 106, 107), task_lease("c", 107, 108), task_lease("d", 108, 109),
              task_lease("e", 109, 110.5), task_lease("e", 110.5, 112), task_lease("e", 112, 113)]
    single = {"leases": leases, "started_at": 100.0, "wall_s": 15.0, "seeds": 1}
    pred = bench.predict_makespan(single, ["e", "a", "b", "c", "d"], 2, given=["a", "b", "c", "d", "e"])
    assert pred["lease_s_by_task"] == {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0, "e": 4.0}
    assert pred["makespan_s"] == 4.0 and pred["given_makespan_s"] == 6.0
    assert pred["startup_offset_s"] == 5.0 and pred["predicted_wall_s"] == 9.0
    assert pred["ratio"] == pytest.approx(15.0 / 9.0)
    # Tasks missing from the order still count (at the end); the same order gives no "given" makespan.
    pred = bench.predict_makespan(single, ["a", "b", "c", "d"], 2, given=["a", "b", "c", "d"])
    assert pred["makespan_s"] == 6.0 and "given_makespan_s" not in pred
    # Two seeds: each task's seconds split over its two runs, seed-major: a 2, b 1, a 2, b 1 -> 3 on 2 devices.
    two = {"leases": [task_lease("a", 0, 4), task_lease("b", 4, 6)], "wall_s": 6.0, "seeds": 2}
    pred = bench.predict_makespan(two, ["a", "b"], 2)
    assert pred["makespan_s"] == 3.0 and pred["startup_offset_s"] == 0.0 and not pred["offset_measured"]
    assert bench.predict_makespan({"leases": [], "wall_s": 1.0}, ["a"], 2) is None
    assert "Model, not a measurement" in bench.prediction_text(bench.predict_makespan(single, ["e", "a", "b", "c", "d"], 2), 2)


def test_speedup_vs_eager_is_compared_per_evaluation(bench) -> None:
    single = [timed("t1", "aa", "cuda:0", [{"candidate": {"median_us": 80.0}, "eager": {"median_us": 100.0}},
                                           {"candidate": {"median_us": 50.0}, "eager": {"median_us": 100.0}}])]
    # The machine of the other sweep is 5% slower on subgraph 0 for both (speedup unchanged), and eager alone
    # 2% slower on subgraph 1 (speedup 2% up).
    multi = [timed("t1", "aa", "cuda:1", [{"candidate": {"median_us": 84.0}, "eager": {"median_us": 105.0}},
                                          {"candidate": {"median_us": 50.0}, "eager": {"median_us": 102.0}}]),
             timed("t2", "bb", "cuda:1", [{"candidate": {"median_us": 10.0}}])]  # not in the 1-device sweep
    rows = bench.compare(single, multi, "speedup", "median_us")
    assert [(r["task"], r["subgraph"]) for r in rows] == [("t1", 0), ("t1", 1)]
    assert [r["base_us"] for r in rows] == [1.25, 2.0] and [r["other_us"] for r in rows] == [1.25, 1.02 * 2]
    assert rows[0]["diff"] == pytest.approx(0.0, abs=1e-12) and rows[1]["diff"] == pytest.approx(0.02)
    # The candidate's own median disagrees by 5% on subgraph 0, which the speedup does not.
    assert [r["diff"] for r in bench.compare(single, multi, "candidate", "median_us")] == pytest.approx([0.05, 0.0])
    # A candidate evaluated twice in the 1-device sweep: the median of its speedups.
    twice = single + [timed("t1", "aa", "cuda:0", [{"candidate": {"median_us": 100.0}, "eager": {"median_us": 100.0}}])]
    assert bench.compare(twice, multi, "speedup", "median_us")[0]["base_us"] == pytest.approx((1.25 + 1.0) / 2)

    lease_pairs = [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)]
    a = bench.analyse({"phases": {"single": phase(["cuda:0"], single, [lease("cuda:0", 0, 4)], finished=1, wall=10.0),
                                  "multi": phase(["cuda:0", "cuda:1"], multi, lease_pairs, finished=1, wall=5.0)}},
                      tolerance=0.03, min_ratio=1.8)
    assert a["comparisons"]["multi:speedup:median_us"]["by_device"]["cuda:1"]["worst_abs"] == pytest.approx(0.02)
    check = next(c for c in a["checks"] if c["check"] == "each candidate's speedup vs eager within 3% of its single-device value")
    assert check["ok"] and check["value"].startswith("cuda:1: 2/2 within, worst 2.0%")
    a = bench.analyse({"phases": {"single": phase(["cuda:0"], single, [lease("cuda:0", 0, 4)], finished=1, wall=10.0),
                                  "multi": phase(["cuda:0", "cuda:1"], multi, lease_pairs, finished=1, wall=5.0)}},
                      tolerance=0.01, min_ratio=1.8)
    assert not next(c for c in a["checks"] if c["check"].startswith("each candidate's speedup vs eager"))["ok"]


def test_p10_rows_only_where_the_times_carry_p10(bench) -> None:
    def times(cand: float, eager: float, p10: tuple[float, float] | None = None) -> dict:
        c, e = {"median_us": cand}, {"median_us": eager}
        if p10:
            c["p10_us"], e["p10_us"] = p10
        return {"candidate": c, "eager": e}

    old_single = [timed("t1", "aa", "cuda:0", [times(80.0, 100.0)])]
    old_multi = [timed("t1", "aa", "cuda:1", [times(80.0, 100.0)])]
    assert bench.compare(old_single, old_multi, "candidate", "p10_us") == []
    assert bench.compare(old_single, old_multi, "speedup", "p10_us") == []
    pair = [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)]

    def analysed(single_evals: list[dict], multi_evals: list[dict]) -> dict:
        return bench.analyse({"phases": {"single": phase(["cuda:0"], single_evals, pair[:1], finished=1, wall=10.0),
                                         "multi": phase(["cuda:0", "cuda:1"], multi_evals, pair, finished=1, wall=5.0)}},
                             tolerance=0.03, min_ratio=1.8)

    old = analysed(old_single, old_multi)["comparisons"]
    assert "multi:speedup:median_us" in old and not any("p10" in k for k in old)

    new_single = [timed("t1", "aa", "cuda:0", [times(80.0, 100.0, (75.0, 96.0))])]          # p10 speedup 1.28
    new_multi = [timed("t1", "aa", "cuda:1", [times(80.0, 100.0, (78.0, 96.0))])]           # p10 speedup 96/78
    cand = bench.compare(new_single, new_multi, "candidate", "p10_us")
    assert [(r["base_us"], r["other_us"]) for r in cand] == [(75.0, 78.0)] and cand[0]["diff"] == pytest.approx(0.04)
    speed = bench.compare(new_single, new_multi, "speedup", "p10_us")
    assert speed[0]["base_us"] == pytest.approx(1.28) and speed[0]["diff"] == pytest.approx(75.0 / 78.0 - 1.0)
    new = analysed(new_single, new_multi)["comparisons"]
    assert {"multi:candidate:p10_us", "multi:speedup:p10_us"} <= set(new)
    # p10 in one sweep only (older data on one side): no pairs, no rows.
    assert bench.compare(old_single, new_multi, "speedup", "p10_us") == []
    # The checks stay on medians: the 4% p10 disagreement fails none (only cuda:0, which timed nothing, does).
    failed = [c["check"] for c in analysed(new_single, new_multi)["checks"] if not c["ok"]]
    assert failed and all(c.startswith("candidates compared on every device") for c in failed), failed


def test_the_report_shows_the_order_the_model_and_the_speedup_rows(bench) -> None:
    single_evals = [timed("t1", "aa", "cuda:0", [{"candidate": {"median_us": 80.0, "p10_us": 75.0},
                                                  "eager": {"median_us": 100.0, "p10_us": 96.0}}])]
    multi_evals = [timed("t1", "aa", "cuda:1", [{"candidate": {"median_us": 80.0, "p10_us": 78.0},
                                                 "eager": {"median_us": 100.0, "p10_us": 96.0}}])]
    order = bench.choose_task_order(["t2", "t1"], "warmup-cost", {"leases": [task_lease("t1", 0, 30)]})
    single = phase(["cuda:0"], single_evals, [task_lease("t1", 12, 20), task_lease("t2", 20, 22)], finished=2, wall=24.0)
    multi = phase(["cuda:0", "cuda:1"], multi_evals, [task_lease("t1", 12, 20), task_lease("t2", 12, 14, "cuda:1")],
                  finished=2, wall=21.0)
    for p in (single, multi):
        p.update(workers=4, finished_runs=2, planned_runs=2, evaluations=2, wall_s=p["busy"]["window_s"],
                 started_at=10.0, seeds=1, task_order=order)
    result = {"started_at": 0.0, "machine": "2 GPUs", "tasks": ["t2", "t1"], "long_tail_tasks": [], "seeds": 1, "workers": 4,
              "single_workers": 4, "cache_mode": "warm", "timing_budget": None, "max_steps": 40, "patience": 3,
              "run_max_wall": None, "multi_pool": ["cuda:0", "cuda:1"], "phases": {"single": single, "multi": multi}}
    result["analysis"] = bench.analyse(result, tolerance=0.03, min_ratio=1.8)
    pred = result["analysis"]["prediction"]
    assert pred["order"] == ["t1", "t2"] and pred["makespan_s"] == 8.0 and pred["given_makespan_s"] == 8.0
    assert pred["startup_offset_s"] == 2.0 and pred["predicted_wall_s"] == 10.0
    text = bench.markdown(result, 0.03, 10)
    assert "Task order of the measured sweeps (`--order warmup-cost`): longest first by the warm-up's " \
           "evaluation-lease seconds per task: t1 (30 s); then, not leased in the warm-up, as given: t2." in text
    assert "Model, not a measurement: greedy list scheduling" in text and "that predicts a 10 s 2-device sweep" in text
    for label in ("speedup vs eager (what the score uses)", "candidate, end-to-end p10", "speedup vs eager from p10"):
        assert f"| {label}" in text
    assert "| each candidate's speedup vs eager within 3% of its single-device value | PASS |" in text
    assert "CUDA-graph replay guard" not in text  # these records carry no guard counts
    multi_evals[0]["subgraphs"][0]["times"]["candidate"].update(graph_replays=95, graph_dropped=5)
    assert "| 2 devices | cuda:1 | 1 | 1 | 95 | 5 (5.00%) |" in bench.markdown(result, 0.03, 10)
    # Measured sweeps that ran in different orders are flagged.
    multi["task_order"] = bench.choose_task_order(["t2", "t1"], "given", None)
    assert "Task order differs between the measured sweeps" in bench.markdown(result, 0.03, 10)


def test_a_failed_inspection_is_summarised_with_its_reason(script) -> None:
    error_summary = script.error_summary
    message = "inspecting subgraph 0 failed (exit 1):\nTraceback (most recent call last):\n  File x\nRuntimeError: CUDA out of memory\n"
    assert error_summary(message) == "inspecting subgraph 0 failed (exit 1): ... RuntimeError: CUDA out of memory"
    assert error_summary("one line") == "one line"
    assert error_summary("\n \n") == "(no message)"
    assert error_summary("a" * 500, width=10) == "a" * 10


def test_the_control_sweep_is_compared_with_the_first_single_device_sweep(bench) -> None:
    single_evals = [timed("t1", "aa", "cuda:0", [{"candidate": {"median_us": 80.0}, "eager": {"median_us": 100.0}}])]
    # The same sweep again on the same GPU, on a host 10% faster for eager and 5% for the candidate.
    again_evals = [timed("t1", "aa", "cuda:0", [{"candidate": {"median_us": 76.0}, "eager": {"median_us": 90.0}}])]
    multi_evals = [timed("t1", "aa", "cuda:1", [{"candidate": {"median_us": 80.0}, "eager": {"median_us": 100.0}}])]
    single = phase(["cuda:0"], single_evals, [task_lease("t1", 0, 8)], finished=1, wall=10.0)
    again = phase(["cuda:0"], again_evals, [task_lease("t1", 0, 6)], finished=1, wall=8.0)
    multi = phase(["cuda:0", "cuda:1"], multi_evals, [task_lease("t1", 0, 4), task_lease("t2", 0, 4, "cuda:1")],
                  finished=1, wall=5.0)
    for p in (single, again, multi):
        p.update(workers=4, finished_runs=1, planned_runs=1, evaluations=1, wall_s=p["busy"]["window_s"],
                 started_at=0.0, seeds=1)
    result = {"started_at": 0.0, "machine": "2 GPUs", "tasks": ["t1"], "long_tail_tasks": [], "seeds": 1, "workers": 4,
              "single_workers": 4, "cache_mode": "warm", "timing_budget": None, "max_steps": 40, "patience": 3,
              "run_max_wall": None, "multi_pool": ["cuda:0", "cuda:1"],
              "phases": {"single": single, "multi": multi, "single-again": again}}
    a = bench.analyse(result, tolerance=0.03, min_ratio=1.8)
    assert a["control_throughput_ratio"] == pytest.approx(10.0 / 8.0)
    control = a["comparisons"]["single-again:speedup:median_us"]["rows"]
    assert [(r["base_us"], r["other_us"]) for r in control] == [(1.25, pytest.approx(90.0 / 76.0))]
    assert a["comparisons"]["single-again:candidate:median_us"]["by_device"]["cuda:0"]["worst_abs"] == pytest.approx(0.05)
    # The control does not enter the multi-device checks (they all still compare with the first sweep)...
    speed = next(c for c in a["checks"] if c["check"].startswith("each candidate's speedup vs eager"))
    assert speed["ok"] and speed["value"] == "cuda:1: 1/1 within, worst 0.0%, median 0.0%"
    # ...but its leases count for exclusivity, and the report shows it as its own sweep.
    assert next(c for c in a["checks"] if c["check"].startswith("at most one evaluation"))["value"].endswith("(4 leases)")
    result["analysis"] = a
    text = bench.markdown(result, 0.03, 10)
    assert "| 1 device, again (control) | cuda:0 | 4 | 1/1 |" in text
    assert "Control (the 1-device sweep run again, `--phases single-again`): throughput ratio 1.25x" in text
    assert "| 1 device, again (control) | speedup vs eager (what the score uses) | cuda:0 | 1 |" in text


def test_the_control_is_run_only_when_asked_for(script) -> None:
    assert script.DEFAULT_PHASES == ("prewarm", "warmup", "single", "multi")
    assert "single-again" in script.PHASES
    # The script reports with the analysis module's functions, not copies of them.
    assert script.analyse.__module__ == script.markdown.__module__ == "multi_gpu_analysis"


def test_host_speed_from_the_same_evaluations_leases_and_the_bracketed_throughput(bench) -> None:
    def leased(task: str, digest: str, device: str, start: float, end: float) -> dict:
        record = timed(task, digest, device, [{"candidate": {"median_us": 80.0}, "eager": {"median_us": 100.0}}])
        return record | {"lease": {"device": device, "start": start, "end": end}}

    # t1's pass "aa" was evaluated twice in each sweep (paired in the order they ran); "zz" only
    # in the 1-device sweep, "yy" only in the multi-device one: neither counts.
    single_evals = [leased("t1", "aa", "cuda:0", 0, 10), leased("t1", "aa", "cuda:0", 10, 30),
                    leased("t2", "bb", "cuda:0", 30, 40), leased("t2", "zz", "cuda:0", 40, 90)]
    multi_evals = [leased("t1", "aa", "cuda:1", 20, 36), leased("t1", "aa", "cuda:0", 0, 8),
                   leased("t2", "bb", "cuda:0", 8, 16), leased("t2", "yy", "cuda:1", 0, 20)]
    again_evals = [leased("t1", "aa", "cuda:0", 0, 11)]  # stopped early: one evaluation
    assert bench.matched_lease_time(single_evals, multi_evals) == {
        "evaluations": 3, "base_s": 40.0, "other_s": 32.0, "ratio": pytest.approx(0.8)}
    assert bench.matched_lease_time(single_evals, [leased("t9", "aa", "cuda:0", 0, 1)]) is None

    def result(again: dict) -> dict:
        single = phase(["cuda:0"], single_evals, [task_lease("t1", 0, 30)], finished=2, wall=100.0)
        multi = phase(["cuda:0", "cuda:1"], multi_evals, [task_lease("t1", 0, 8)], finished=2, wall=50.0)
        for p in (single, again, multi):
            p.update(workers=4, finished_runs=p.get("finished_runs", 2), planned_runs=2, evaluations=4,
                     wall_s=p["busy"]["window_s"], started_at=0.0, seeds=1)
        return {"started_at": 0.0, "machine": "2 GPUs", "tasks": ["t1", "t2"], "long_tail_tasks": [], "seeds": 1,
                "workers": 4, "single_workers": 4, "cache_mode": "warm", "timing_budget": None, "max_steps": 40,
                "patience": 3, "run_max_wall": None, "multi_pool": ["cuda:0", "cuda:1"],
                "phases": {"single": single, "multi": multi, "single-again": again}}

    # A whole control sweep, 20% slower than the first: pooled 4 solves in 220 s against 2 in 50 s.
    r = result(phase(["cuda:0"], again_evals, [task_lease("t1", 0, 11)], finished=2, wall=120.0))
    a = bench.analyse(r, tolerance=0.03, min_ratio=1.8)
    assert a["throughput_ratio"] == pytest.approx(2.0)
    assert a["control_throughput_ratio"] == pytest.approx(100.0 / 120.0)
    assert a["throughput_ratio_vs_both_single"] == pytest.approx((2 / 50) / (4 / 220))
    assert a["lease_ratio"]["multi"]["ratio"] == pytest.approx(0.8)
    assert a["lease_ratio"]["single-again"] == {"evaluations": 1, "base_s": 10.0, "other_s": 11.0, "ratio": pytest.approx(1.1)}
    # The multi-device sweep against the control too: its throughput, its lease time (t1's first
    # "aa" evaluation, 11 s in the control and 8 s in the multi-device sweep), its timings.
    assert a["throughput_ratio_vs_control"] == pytest.approx(120.0 / 50.0)
    assert a["lease_ratio"]["multi-vs-control"]["ratio"] == pytest.approx(8.0 / 11.0)
    assert a["comparisons"]["multi-vs-control:candidate:median_us"]["by_device"]["cuda:0"]["pairs"] == 1
    # The rule-based checks read against the 1-device sweep nearest in lease time: here the first
    # (|log 0.8| < |log 8/11|), whose medians agree exactly, at 2.00x.
    assert a["reference"]["sweep"] == "single"
    rule = {c["check"]: c for c in a["checks"] if "nearest in lease time" in c["check"]}
    assert [(c["ok"], c["value"]) for c in rule.values()] == [
        (True, "against the first 1-device sweep (lease ratios 0.800 vs the first, 0.727 vs the control): "
               "cuda:0: 0.00%; cuda:1: 0.00%"),
        (True, "2.00x against the first 1-device sweep")]
    r["analysis"] = a
    text = bench.markdown(r, 0.03, 10)
    assert "against both 1-device sweeps pooled" in text and "**2.20x**" in text
    assert "against the control instead (2 devices / 1 device, again): **2.40x**" in text
    assert "| 2 devices, against the control instead | speedup vs eager (what the score uses) | cuda:0 | 1 |" in text
    assert "| 2 devices | 3 | 40 | 32 | 0.800 |" in text
    assert "| 1 device, again (control) | 1 | 10 | 11 | 1.100 |" in text

    # A control whose evaluations took as long as the multi-device sweep's (8 s against 8 s; the
    # first sweep's 10 s): it is the reference, 120 s against 50 s.
    r = result(phase(["cuda:0"], [leased("t1", "aa", "cuda:1", 0, 8)], [task_lease("t1", 0, 8)], finished=2, wall=120.0))
    a = bench.analyse(r, tolerance=0.03, min_ratio=1.8)
    assert a["reference"] == {"sweep": "single-again", "lease_ratio_vs_first": pytest.approx(0.8),
                              "lease_ratio_vs_control": pytest.approx(1.0)}
    rule = [c for c in a["checks"] if "nearest in lease time" in c["check"]]
    assert rule[0]["value"].startswith("against the control (lease ratios 0.800 vs the first, 1.000 vs the control)")
    assert rule[-1]["ok"] and rule[-1]["value"] == "2.40x against the control"

    # A control stopped by the time budget: no throughput ratios from it, its lease ratio stays.
    stopped = phase(["cuda:0"], again_evals, [task_lease("t1", 0, 11)], finished=1, wall=15.0)
    stopped.update(complete=False, finished_runs=1)
    r = result(stopped)
    a = bench.analyse(r, tolerance=0.03, min_ratio=1.8)
    assert not {"control_throughput_ratio", "throughput_ratio_vs_both_single", "throughput_ratio_vs_control"} & a.keys()
    assert a["lease_ratio"]["single-again"]["ratio"] == pytest.approx(1.1)
    r["analysis"] = a
    text = bench.markdown(r, 0.03, 10)
    assert "no throughput ratio (a 1-device sweep did not finish: the first 2/2 runs, the control 1/2)" in text
    assert "pooled" not in text


def test_the_recorded_paired_speedup_is_compared_where_both_sweeps_have_it(bench) -> None:
    def with_paired(record: dict, values: list[float | None]) -> dict:
        for s, v in zip(record["subgraphs"], values):
            s["paired_speedup_vs_eager"] = v
        return record

    both = {"candidate": {"median_us": 80.0}, "eager": {"median_us": 100.0}}
    single = [with_paired(timed("t1", "aa", "cuda:0", [both, both]), [1.25, 1.30])]
    multi = [with_paired(timed("t1", "aa", "cuda:1", [both, both]), [1.30, None])]  # subgraph 1: older data
    rows = bench.compare(single, multi, "paired", "paired_speedup_vs_eager")
    assert [(r["subgraph"], r["base_us"], r["other_us"]) for r in rows] == [(0, 1.25, 1.30)]
    assert rows[0]["diff"] == pytest.approx(0.04)
    pair = [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5)]
    a = bench.analyse({"phases": {"single": phase(["cuda:0"], single, pair[:1], finished=1, wall=10.0),
                                  "multi": phase(["cuda:0", "cuda:1"], multi, pair, finished=1, wall=5.0)}},
                      tolerance=0.03, min_ratio=1.8)
    assert a["comparisons"]["multi:paired:paired_speedup_vs_eager"]["by_device"]["cuda:1"]["worst_abs"] == pytest.approx(0.04)
    # Records without the field (every sweep before it was recorded) give no rows.
    assert bench.compare([timed("t1", "aa", "cuda:0", [both])], [timed("t1", "aa", "cuda:1", [both])],
                         "paired", "paired_speedup_vs_eager") == []


def test_report_reanalyses_a_saved_result_without_running_anything(bench, tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    evals = [timed("t1", "aa", "cuda:0", [{"candidate": {"median_us": 80.0}, "eager": {"median_us": 100.0}}])]
    single = phase(["cuda:0"], evals, [task_lease("t1", 0, 8)], finished=1, wall=10.0)
    multi = phase(["cuda:0", "cuda:1"], [timed("t1", "aa", "cuda:1", [{"candidate": {"median_us": 80.0},
                                                                        "eager": {"median_us": 100.0}}])],
                  [task_lease("t1", 0, 4), task_lease("t2", 0, 4, "cuda:1")], finished=1, wall=5.0)
    for p in (single, multi):
        p.update(workers=4, finished_runs=1, planned_runs=1, evaluations=1, wall_s=p["busy"]["window_s"], started_at=0.0)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps({  # as the script saves it: the busy profiles' integer keys become strings
        "started_at": 0.0, "machine": "2 GPUs", "tasks": ["t1"], "long_tail_tasks": [], "seeds": 1, "workers": 4,
        "single_workers": 4, "cache_mode": "warm", "timing_budget": None, "max_steps": 40, "patience": 3,
        "run_max_wall": None, "multi_pool": ["cuda:0", "cuda:1"], "phases": {"single": single, "multi": multi}}))
    run = subprocess.run([sys.executable, str(SCRIPT), "--report", str(saved)], capture_output=True, text=True, timeout=120)
    assert "| 2 devices | cuda:0,cuda:1 | 4 | 1/1 | 1 | 5 |" in run.stdout
    assert "| throughput at least 1.8x the single-device sweep's | PASS | 2.00x |" in run.stdout
    # One check fails (the candidate ran on cuda:1 only), and the exit code says so.
    assert "| candidates compared on every device (end-to-end time) | FAIL | compared on cuda:1 only |" in run.stdout
    assert run.returncode == 1

    # The multicast switches are checked against the measuring process's, recorded in the result,
    # not against whatever the process that reports has.
    state = json.loads(saved.read_text())
    state["multicast_env"] = {"NCCL_NVLS_ENABLE": "0"}
    saved.write_text(json.dumps(state))
    env = {k: v for k, v in os.environ.items() if k != "NCCL_NVLS_ENABLE"}
    run = subprocess.run([sys.executable, str(SCRIPT), "--report", str(saved)], capture_output=True, text=True,
                         timeout=120, env=env)
    assert "sampled processes; in the measuring process: NCCL_NVLS_ENABLE=0 |" in run.stdout

    # A result with no measured sweeps yet says so.
    state["phases"] = {}
    saved.write_text(json.dumps(state))
    run = subprocess.run([sys.executable, str(SCRIPT), "--report", str(saved)], capture_output=True, text=True, timeout=120)
    assert "Not in this result yet: the 1-device sweep and the multi-device sweep" in run.stdout

    # Not a result: one line and exit code 2, never a traceback (1 means a check failed).
    for name, content in (("other.json", '{"not": "a result"}'), ("list.json", "[1, 2]"),
                          ("phases.json", '{"phases": {"single": 1}}'), ("text.json", "not json"),
                          ("broken.json.gz", "not gzip")):
        (tmp_path / name).write_text(content)
        bad = subprocess.run([sys.executable, str(SCRIPT), "--report", str(tmp_path / name)],
                             capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and "not a multi_gpu_sweep result" in bad.stderr and "Traceback" not in bad.stderr, name
        assert len(bad.stderr.strip().splitlines()) == 1
    missing = subprocess.run([sys.executable, str(SCRIPT), "--report", str(tmp_path / "missing.json")],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and missing.stderr.strip().endswith("missing.json: no such file")


RESULTS = SCRIPT.parent / "results"


@pytest.mark.parametrize("name, expected", [
    # The README's verdicts for the two runs made under the pre-registered rule (b4074ad).
    ("multi_gpu_sweep-2026-11-30-0552.json.gz", {"reference": "single", "speedup": True, "device time": False, "throughput": True}),
    ("multi_gpu_sweep-2026-11-30-0743.json.gz", {"reference": "single-again", "speedup": True, "device time": True, "throughput": False}),
])
def test_the_kept_confirmatory_runs_give_the_recorded_verdicts(bench, name: str, expected: dict) -> None:
    result = bench.load_state(RESULTS / name)
    a = bench.analyse(result, 0.03, 1.8)
    assert a["reference"]["sweep"] == expected["reference"]
    rule = {c["check"]: c["ok"] for c in a["checks"] if "nearest in lease time" in c["check"]}
    assert len(rule) == 3
    for what in ("speedup", "device time", "throughput"):
        (ok,) = [v for k, v in rule.items() if k.startswith(what) or f"of the {what}" in k]
        assert ok is expected[what], (what, rule)


def test_guard_drops_are_summed_per_device_and_shown_when_recorded(bench) -> None:
    rec = evaluation("task_a", "d1", "cuda:1", [5.0, 6.0])
    rec["subgraphs"][0]["times"]["candidate"].update(graph_replays=90, graph_dropped=10)
    rec["subgraphs"][1]["times"]["candidate"].update(graph_replays=100, graph_dropped=0)
    old = evaluation("task_b", "d2", "cuda:0", [5.0])  # recorded before the counts existed
    assert bench.guard_drops([rec, old]) == {"cuda:1": {"kept": 190, "dropped": 10, "timings": 2, "timings_dropping": 1}}
    assert bench.guard_drops([old]) == {}


def test_the_report_names_the_code_each_phase_ran(bench) -> None:
    a = {"source_sha256": "a" * 64, "git_commit": "c" * 40, "dirty": False}
    b = {"source_sha256": "b" * 64, "git_commit": None, "dirty": None}
    result = {"phases": {"single": {"sources": [a, a]}, "multi": {"sources": [a, a]}}}
    assert bench.code_text(result) == f"Code: passagent sources sha256 {'a' * 12} (git commit {'c' * 12}), every phase from start to end."
    result["phases"]["multi"]["sources"] = [a, b]  # edited while the phase ran
    text = bench.code_text(result)
    assert text.startswith("**The phases did not all run the same recorded code**")
    assert f"multi: sources sha256 {'a' * 12} (git commit {'c' * 12}) then sources sha256 {'b' * 12} (no git commit" in text
    # A phase without a record (resumed from a folder written before the record existed) is named.
    result["phases"] = {"warmup": {}, "single": {"sources": [a, a]}}
    assert "warmup: no record" in bench.code_text(result)
    assert bench.code_text({"phases": {"single": {}}}) is None  # results from before it was recorded
