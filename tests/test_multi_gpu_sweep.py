"""benchmarks/multi_gpu_sweep.py and its analysis (benchmarks/multi_gpu_analysis.py): matching
candidates across sweeps, agreement, throughput, the checks, resuming, the children's environment,
``--report`` and the kept results' figures.

The script itself runs real sweeps (its docstring gives a dry run on the CPU); here the analysis
runs on made-up evaluation records and lease logs, and on the results kept in benchmarks/results/.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from passagent.tools.process.device_lease import busy_profile

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "multi_gpu_sweep.py"
RESULTS = SCRIPT.parent / "results"
OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    """The analysis module."""
    return load(SCRIPT.with_name("multi_gpu_analysis.py"))


@pytest.fixture(scope="module")
def script():
    """The script (it imports the analysis from beside itself)."""
    return load(SCRIPT)


def evaluation(task: str, digest: str, device: str, graph: list[float], speedup: list[float] | None = None,
               seed: int = 0) -> dict:
    """An evaluation record: per subgraph the candidate's CUDA-graph replay median and the score's speedup."""
    speedup = speedup or [1.0] * len(graph)
    return {"task": task, "seed": seed, "pass_sha256": digest, "device": device,
            "subgraphs": [{"index": i, "speedup_vs_eager": s, "times": {"candidate": {"graph_median_us": g}}}
                          for i, (g, s) in enumerate(zip(graph, speedup))]}


def lease(device: str, start: float, end: float, task: str = "t1") -> dict:
    return {"device": device, "host": "h", "task": task, "start": start, "end": end, "start_mono": start, "end_mono": end}


def phase(devices: list[str], evals: list[dict], leases: list[dict], finished: int, wall: float, planned: int = 2,
          off: int = 2) -> dict:
    return {"devices": devices, "evaluation_records": evals, "leases": leases, "busy": busy_profile(leases, (0.0, wall)),
            "complete": finished == planned, "finished_runs": finished, "planned_runs": planned, "evaluations": len(evals),
            "wall_s": wall, "solves_per_hour": finished / wall * 3600,
            "processes": {"solve run": {"processes": 2, "multicast_off": off, "cuda_visible_devices": ["None"]}}}


def result(phases: dict, **extra) -> dict:
    return {"started_at": 0.0, "machine": "2 GPUs", "tasks": ["t1", "t2"], "seeds": 1, "workers": 4, "timing_budget": None,
            "max_steps": 40, "patience": 3, "multi_pool": ["cuda:0", "cuda:1"], "multicast_env": OFF, "phases": phases} | extra


TWO = [lease("cuda:0", 0, 4), lease("cuda:1", 0.5, 4.5, "t2")]


def test_candidates_are_matched_by_task_seed_digest_and_subgraph(bench) -> None:
    single = [evaluation("t1", "aa", "cuda:0", [100.0, 200.0]), evaluation("t1", "aa", "cuda:0", [102.0, 200.0], seed=1),
              evaluation("t2", "bb", "cuda:0", [50.0])]
    multi = [evaluation("t1", "aa", "cuda:1", [101.0, 210.0]), evaluation("t1", "aa", "cuda:0", [102.0, 200.0], seed=1),
             evaluation("t2", "cc", "cuda:1", [50.0])]  # another pass: not comparable
    rows = bench.compare(single, multi, "graph")
    assert [(r["task"], r["subgraph"], r["device"]) for r in rows] == [("t1", 0, "cuda:1"), ("t1", 1, "cuda:1"),
                                                                      ("t1", 0, "cuda:0"), ("t1", 1, "cuda:0")]
    assert [round(r["diff"], 4) for r in rows] == [0.01, 0.05, 0.0, 0.0]
    by_device = bench.agreement(rows, 0.03)
    assert by_device["cuda:1"] == {"pairs": 2, "median_abs": pytest.approx(0.03), "worst_abs": pytest.approx(0.05), "within": 1}
    assert by_device["cuda:0"] == {"pairs": 2, "median_abs": 0.0, "worst_abs": 0.0, "within": 2}


def test_the_speedup_compared_is_the_score_s(bench) -> None:
    single = [evaluation("t1", "aa", "cuda:0", [10.0, 10.0], speedup=[1.25, 2.0]),
              evaluation("t1", "aa", "cuda:0", [10.0], speedup=[1.35])]  # evaluated twice: the median, 1.30
    multi = [evaluation("t1", "aa", "cuda:1", [10.0, 10.0], speedup=[1.365, 2.0])]
    assert [(r["base"], r["other"]) for r in bench.compare(single, multi, "speedup")] == [(1.30, 1.365), (2.0, 2.0)]
    # Results recorded before speedup_vs_eager was the score carry it as paired_speedup_vs_eager.
    old = {"index": 0, "paired_speedup_vs_eager": 1.5, "times": {}}
    assert bench.metric_value(old, "speedup") == 1.5 and bench.metric_value(old, "graph") is None
    assert bench.metric_value({"index": 0, "speedup_vs_eager": 1.2, "paired_speedup_vs_eager": 1.5}, "speedup") == 1.2
    # A candidate not timed (failed) gives no row.
    assert bench.compare(single, [evaluation("t1", "aa", "cuda:1", [10.0], speedup=[None])], "speedup") == []


def test_throughput_agreement_and_the_reference_sweep(bench) -> None:
    single = phase(["cuda:0"], [evaluation("t1", "aa", "cuda:0", [100.0], [1.20])], [lease("cuda:0", 0, 8)], finished=2, wall=100.0)
    multi = phase(["cuda:0", "cuda:1"], [evaluation("t1", "aa", "cuda:0", [101.0], [1.26]),
                                         evaluation("t2", "bb", "cuda:1", [50.0], [2.0])], TWO, finished=2, wall=50.0)
    again_evals = [evaluation("t1", "aa", "cuda:0", [102.0], [1.25]), evaluation("t2", "bb", "cuda:0", [49.0], [2.02])]
    again = phase(["cuda:0"], again_evals, [lease("cuda:0", 0, 8)], finished=2, wall=120.0)
    a = bench.analyse(result({"single": single, "multi": multi, "single-again": again}), 0.03, 1.8)
    assert a["throughput"] == {"multi/single": {"ratio": pytest.approx(2.0), "comparable": True},
                               "multi/single-again": {"ratio": pytest.approx(2.4), "comparable": True},
                               "single-again/single": {"ratio": pytest.approx(100 / 120), "comparable": True}}
    assert a["agreement"]["multi/single"]["speedup"] == {"cuda:0": {"pairs": 1, "median_abs": pytest.approx(0.05),
                                                                    "worst_abs": pytest.approx(0.05), "within": 0}}
    # The control finished: it is the reference, and the multi-device sweep agrees with it on both devices.
    assert a["reference"] == "single-again"
    checks = {c["check"]: (c["ok"], c["value"]) for c in a["checks"]}
    assert checks["throughput at least 1.8x the reference 1-device sweep's"] == (True, "2.40x against the control")
    speed = checks["median over candidates of the speedup vs eager (the score's) difference within 3% on every device, "
                   "against the reference"]
    assert speed[0] and speed[1] == "against the control: cuda:0: 0.80%; cuda:1: 0.99%"
    assert all(ok for ok, _ in checks.values()), checks
    # A control stopped early: not comparable, and the first 1-device sweep is the reference.
    again.update(complete=False, finished_runs=1)
    a = bench.analyse(result({"single": single, "multi": multi, "single-again": again}), 0.03, 1.8)
    assert a["reference"] == "single" and not a["throughput"]["multi/single-again"]["comparable"]
    checks = {c["check"]: (c["ok"], c["value"]) for c in a["checks"]}
    assert checks["throughput at least 1.8x the reference 1-device sweep's"] == (True, "2.00x against the first 1-device sweep")
    # Against the first sweep the speedup is 5% off on cuda:0, and cuda:1's candidate was not in it.
    assert checks["median over candidates of the speedup vs eager (the score's) difference within 3% on every device, "
                  "against the reference"] == (False, "against the first 1-device sweep: cuda:0: 5.00%")


def test_checks_fail_when_a_claim_does_not_hold(bench) -> None:
    single = phase(["cuda:0"], [evaluation("t1", "aa", "cuda:0", [100.0])], [lease("cuda:0", 0, 8)], finished=2, wall=10.0)
    # Both leases on cuda:0, overlapping; 1.25x; one child with multicast on.
    slow = phase(["cuda:0", "cuda:1"], [evaluation("t1", "aa", "cuda:0", [100.0])],
                 [lease("cuda:0", 0, 4), lease("cuda:0", 3, 6)], finished=2, wall=8.0, off=1)
    a = bench.analyse(result({"single": single, "multi": slow}), 0.03, 1.8)
    failed = {c["check"]: c["value"] for c in a["checks"] if not c["ok"]}
    assert failed == {
        "at most one evaluation per device at a time (every sweep)": "most at once on one device: 2 (3 leases)",
        "2 evaluations at once, one per device, in the 2-device sweep": "most leases at once: 2; all 2 devices busy 0% of its wall time",
        "throughput at least 1.8x the reference 1-device sweep's": "1.25x against the first 1-device sweep",
        "median over candidates of the speedup vs eager (the score's) difference within 3% on every device, against the reference":
            "against the first 1-device sweep: cuda:0: 0.00%",  # nothing compared on cuda:1
        "median over candidates of the candidate device time (CUDA-graph replay) difference within 3% on every device, "
        "against the reference": "against the first 1-device sweep: cuda:0: 0.00%",
        "NVLink multicast off in every process the sweeps started": "3/4 sampled processes had NCCL_NVLS_ENABLE=0, "
                                                                    "TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1",
    }


def test_the_measured_sweeps_run_longest_task_first(bench) -> None:
    warmup = [lease("cuda:0", 0, 4, "t_a"), lease("cuda:0", 10, 16, "t_a"),                         # 10 s
              lease("cuda:1", 0, 30, "t_b"), lease("cuda:0", 16, 26, "t_c"),                        # 30 s, 10 s
              lease("cuda:1", 30, 80, "t_d") | {"purpose": "inspect_ir"}]                           # no evaluation
    assert bench.longest_first(["t_a", "t_c", "t_e", "t_b", "t_d"], warmup) == ["t_b", "t_a", "t_c", "t_e", "t_d"]
    assert bench.longest_first(["t_c", "t_a"], warmup) == ["t_c", "t_a"]  # a tie keeps the given order
    assert bench.longest_first(["t_a", "t_b"], []) == ["t_a", "t_b"]


def test_a_saved_state_keeps_the_busy_profiles_integer_keys(bench, tmp_path: Path) -> None:
    multi = phase(["cuda:0", "cuda:1"], [], TWO, finished=1, wall=5.0)
    (tmp_path / "state.json").write_text(json.dumps({"phases": {"multi": multi}}))
    restored = bench.load_state(tmp_path / "state.json")["phases"]["multi"]["busy"]
    assert restored["fraction_with_devices_busy"] == multi["busy"]["fraction_with_devices_busy"]
    assert restored["fraction_with_devices_busy"][2] == pytest.approx(0.7)  # 3.5 s of 5 with both busy


def test_a_resumed_invocation_keeps_the_earlier_phases_and_its_settings(script) -> None:
    earlier = {"started_at": 1.0, "tasks": ["t1"], "seeds": 1, "workers": 4, "multi_pool": ["cuda:0", "cuda:1"],
               "single_pool": ["cuda:0"], "prewarm_ir": {"subgraphs": 3}, "phases": {"warmup": {"wall_s": 9.0}}}
    now = {**earlier, "started_at": 2.0, "host": "h2", "phases": {}}
    del now["prewarm_ir"]
    merged = script.merge_resumed(earlier, now)
    assert merged["phases"] == {"warmup": {"wall_s": 9.0}} and merged["started_at"] == 1.0
    assert merged["host"] == "h2" and merged["prewarm_ir"] == {"subgraphs": 3}
    with pytest.raises(SystemExit, match="--resume: workers differs from the earlier invocation's \\(4 vs 8\\)"):
        script.merge_resumed(earlier, {**now, "workers": 8})
    assert script.DEFAULT_PHASES == ("prewarm", "warmup", "single", "multi")  # the control only when named


def test_every_child_gets_multicast_off_and_the_sampler_records_it(script, monkeypatch) -> None:
    monkeypatch.setenv("NCCL_NVLS_ENABLE", "1")
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", "/tmp/shared-cache")
    env = script.sweep_env()
    assert {k: env.get(k) for k in OFF} == OFF and "TORCHINDUCTOR_CACHE_DIR" not in env and env["PYTHONUNBUFFERED"] == "1"
    seen = {}
    for name, child_env in (("off", env), ("on", dict(os.environ))):
        # A process whose command line names the sweep command's module stands in for it.
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.0)", "passagent.agent.cli.app"], env=child_env)
        sampler = script.EnvSampler(proc.pid, period_s=0.05)
        sampler.start()
        proc.wait()
        seen[name] = sampler.stop()
    assert seen["off"] == {"sweep command": {"processes": 1, "multicast_off": 1,
                                             "cuda_visible_devices": [str(env.get("CUDA_VISIBLE_DEVICES"))]}}
    assert seen["on"]["sweep command"]["multicast_off"] == 0


def test_prewarm_and_error_summary(script, tmp_path: Path) -> None:
    # benchmarks/gpu_check.py loads the script by path and reads these keys.
    out = script.prewarm_ir([], tmp_path, 2, time.monotonic() + 10, ["cpu:0"])
    assert {k: out[k] for k in ("subgraphs", "parallel", "errors", "not_started")} == {
        "subgraphs": 0, "parallel": 2, "errors": [], "not_started": 0} and out["wall_s"] >= 0
    message = "inspecting subgraph 0 failed (exit 1):\nTraceback (most recent call last):\n  File x\nRuntimeError: CUDA out of memory\n"
    assert script.error_summary(message) == "inspecting subgraph 0 failed (exit 1): ... RuntimeError: CUDA out of memory"
    assert script.error_summary("\n \n") == "(no message)" and script.error_summary("a" * 500, width=10) == "a" * 10


def test_the_report_names_the_code_each_phase_ran(bench) -> None:
    a = {"source_sha256": "a" * 64, "git_commit": "c" * 40, "dirty": False}
    b = {"source_sha256": "b" * 64, "git_commit": None, "dirty": None}
    assert bench.code_text({"single": {"code": a}, "multi": {"code": a}}) == \
        f"Code: passagent sources sha256 {'a' * 12} (git commit {'c' * 12}) in every phase."
    assert bench.code_text({"single": {"code": a}, "multi": {"code": b | {"dirty": True}}, "warmup": {}}) == (
        f"**The phases ran different code:** single: sources sha256 {'a' * 12} (git commit {'c' * 12}); "
        f"multi: sources sha256 {'b' * 12} (no git commit); warmup: no record.")
    assert bench.code_text({"single": {}}) is None


def test_report_reanalyses_a_saved_result_without_running_anything(tmp_path: Path) -> None:
    single = phase(["cuda:0"], [evaluation("t1", "aa", "cuda:0", [100.0])], [lease("cuda:0", 0, 8)], finished=1, wall=10.0, planned=1)
    multi = phase(["cuda:0", "cuda:1"], [evaluation("t1", "aa", "cuda:1", [100.0])], TWO, finished=1, wall=5.0, planned=1)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(result({"single": single, "multi": multi})))

    def report(path: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(SCRIPT), "--report", str(path)], capture_output=True, text=True, timeout=120)

    run = report(saved)
    assert "| 2 devices | cuda:0,cuda:1 | 1/1 | 1 | 5 | 720 | cuda:0 4, cuda:1 4 | 1 | 2 | 70% |" in run.stdout
    assert "Throughput ratio, 2 devices / 1 device (solves per hour): **2.00x** against the first 1-device sweep" in run.stdout
    assert "| 2 devices | 1 device | candidate device time (CUDA-graph replay) | cuda:1 | 1 | 0.00% | 0.00% | 1/1 |" in run.stdout
    # Nothing compared on cuda:0: that check fails, and the exit code says so.
    assert run.returncode == 1 and "| FAIL | against the first 1-device sweep: cuda:1: 0.00% |" in run.stdout
    state = json.loads(saved.read_text()) | {"phases": {}}
    saved.write_text(json.dumps(state))
    assert "Not in this result yet: 1 device and 2 devices" in report(saved).stdout
    # Not a result: one line and exit code 2, never a traceback (1 means a check failed).
    for name, content in (("other.json", '{"not": "a result"}'), ("list.json", "[1, 2]"),
                          ("phases.json", '{"phases": {"single": 1}}'), ("text.json", "not json"), ("broken.json.gz", "not gzip")):
        (tmp_path / name).write_text(content)
        bad = report(tmp_path / name)
        assert bad.returncode == 2 and "not a multi_gpu_sweep result" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, name
    missing = report(tmp_path / "missing.json")
    assert missing.returncode == 2 and missing.stderr.strip().endswith("missing.json: no such file")


@pytest.mark.parametrize("name, throughput, verdicts", [
    # multi/single, multi/control (None: not comparable), and the reference checks' verdicts:
    # throughput, speedup, device time.
    ("multi_gpu_sweep-2026-11-30-0407.json.gz", (1.69, 1.88), ("single-again", True, True, True)),
    ("multi_gpu_sweep-2026-11-30-0552.json.gz", (1.94, None), ("single", True, True, False)),
    ("multi_gpu_sweep-2026-11-30-0743.json.gz", (1.67, 1.70), ("single-again", False, True, True)),
])
def test_the_kept_results_give_their_figures(bench, name: str, throughput: tuple, verdicts: tuple) -> None:
    saved = bench.load_state(RESULTS / name)
    saved["analysis"] = a = bench.analyse(saved, 0.03, 1.8)
    first, control = a["throughput"]["multi/single"], a["throughput"]["multi/single-again"]
    assert round(first["ratio"], 2) == throughput[0] and first["comparable"]
    assert control["comparable"] is (throughput[1] is not None)
    if throughput[1] is not None:
        assert round(control["ratio"], 2) == throughput[1]
    checks = [c["ok"] for c in a["checks"]]
    assert (a["reference"], *checks[2:5]) == verdicts
    assert checks[:2] == [True, True] and checks[5]  # exclusivity, 2 at once, multicast off in every child
    head = f"**{throughput[0]:.2f}x** against the first 1-device sweep"
    assert head in bench.markdown(saved, 0.03)
