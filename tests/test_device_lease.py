"""Device leases: one evaluation per device at a time, across threads and processes."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from passagent.tools.process.device_lease import LEASE_LOG, busy_profile, lease_device, leased_device, pin_worker_device, read_leases


def test_one_holder_per_device_and_waiters_get_it_after(tmp_path: Path) -> None:
    spans: list[tuple[str, float, float]] = []

    def job() -> None:
        with lease_device(["cpu"], tmp_path, poll_s=0.01) as dev:
            start = time.monotonic()
            time.sleep(0.2)
            spans.append((dev, start, time.monotonic()))

    threads = [threading.Thread(target=job) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spans.sort(key=lambda s: s[1])
    assert len(spans) == 3
    for (_, _, end), (_, start, _) in zip(spans, spans[1:]):
        assert start >= end, "two evaluations held the same device at once"


def test_two_devices_are_used_concurrently(tmp_path: Path) -> None:
    held: list[str] = []
    barrier = threading.Barrier(2, timeout=5)

    def job() -> None:
        with lease_device(["cuda:0", "cuda:1"], tmp_path, poll_s=0.01) as dev:
            held.append(dev)
            barrier.wait()  # both hold a device at the same moment

    threads = [threading.Thread(target=job) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(held) == ["cuda:0", "cuda:1"]


def test_timeout_when_every_device_is_busy(tmp_path: Path) -> None:
    with lease_device(["cpu"], tmp_path):
        with pytest.raises(TimeoutError):
            with lease_device(["cpu"], tmp_path, poll_s=0.01, timeout_s=0.1):
                pass


def _queued(tmp_path: Path) -> list[Path]:
    """The tickets of waiters now in a queue of ``tmp_path``."""
    return [p for q in tmp_path.glob("queue-*") for p in q.iterdir() if not p.name.startswith(".")]


def test_waiters_get_the_device_in_the_order_they_asked(tmp_path: Path) -> None:
    # The first waiter polls slowly and the later ones fast: without the queue, a fast poller
    # took the device first (whoever polled first after the release won).
    order: list[str] = []

    def waiter(name: str, poll_s: float) -> None:
        with lease_device(["cpu"], tmp_path, poll_s=poll_s):
            order.append(name)
            time.sleep(0.02)

    with lease_device(["cpu"], tmp_path):
        threads = []
        for name, poll in (("first", 0.3), ("second", 0.005), ("third", 0.005)):
            threads.append(threading.Thread(target=waiter, args=(name, poll)))
            threads[-1].start()
            deadline = time.monotonic() + 5
            while len(_queued(tmp_path)) < len(threads) and time.monotonic() < deadline:
                time.sleep(0.005)  # each has taken its ticket before the next asks
        assert len(_queued(tmp_path)) == 3
    for t in threads:
        t.join(timeout=10)
    assert order == ["first", "second", "third"]
    assert _queued(tmp_path) == []  # every ticket is gone once served


def test_a_dead_waiters_ticket_does_not_block_the_queue(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    child_code = (
        "import sys; from pathlib import Path; from passagent.tools.process.device_lease import lease_device\n"
        "with lease_device(['cpu'], Path(sys.argv[1]), poll_s=0.01):\n    pass\n"
    )
    with lease_device(["cpu"], tmp_path):
        child = subprocess.Popen([sys.executable, "-c", child_code, str(tmp_path)])
        deadline = time.monotonic() + 60
        while not _queued(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.01)
        tickets = _queued(tmp_path)
        assert len(tickets) == 1, "the child should be waiting in the queue"
        os.kill(child.pid, signal.SIGKILL)  # dies waiting: its ticket stays on disk, unlocked
        child.wait(timeout=10)
        assert tickets[0].exists()
    with lease_device(["cpu"], tmp_path, poll_s=0.01, timeout_s=2) as dev:
        assert dev == "cpu"
    assert not tickets[0].exists(), "the dead waiter's ticket is removed by the next waiter"


def test_pools_queue_separately(tmp_path: Path) -> None:
    got = threading.Event()

    def other_pool() -> None:
        with lease_device(["cuda:1"], tmp_path, poll_s=0.01, timeout_s=2):
            got.set()

    with lease_device(["cuda:0"], tmp_path):
        waiting = threading.Thread(target=lambda: _wait_then_give_up(tmp_path))
        waiting.start()
        time.sleep(0.1)  # a waiter for cuda:0 is queued ahead
        t = threading.Thread(target=other_pool)
        t.start()
        t.join(timeout=5)
        assert got.is_set(), "a waiter for cuda:1 must not queue behind one for cuda:0"
        waiting.join(timeout=5)


def _wait_then_give_up(tmp_path: Path) -> None:
    with pytest.raises(TimeoutError):
        with lease_device(["cuda:0"], tmp_path, poll_s=0.01, timeout_s=0.5):
            pass


# --- the lease log --------------------------------------------------------------------------------


def test_every_lease_is_logged_with_its_device_times_and_purpose(tmp_path: Path) -> None:
    barrier = threading.Barrier(2, timeout=5)

    def job(k: int) -> None:
        with lease_device(["cpu:0", "cpu:1"], tmp_path, poll_s=0.01, info={"task": f"t{k}", "pass_sha256": f"d{k}"}):
            if k < 2:
                barrier.wait()  # the first two hold both stand-in devices at the same moment
            time.sleep(0.05)

    threads = [threading.Thread(target=job, args=(k,)) for k in range(4)]
    for t in threads[:2]:
        t.start()
    for t in threads[:2]:
        t.join()
    for t in threads[2:]:
        t.start()
    for t in threads[2:]:
        t.join()
    with pytest.raises(RuntimeError):
        with lease_device(["cpu:0"], tmp_path, info={"task": "boom"}):
            raise RuntimeError("the evaluation failed")

    leases = read_leases(tmp_path)
    assert len(leases) == 5 and {r["task"] for r in leases} == {"t0", "t1", "t2", "t3", "boom"}
    assert {r["device"] for r in leases} == {"cpu:0", "cpu:1"}
    for r in leases:
        assert r["end_mono"] >= r["start_mono"] and r["end"] >= r["start"] and r["wait_s"] >= 0
        assert r["pid"] == os.getpid() and r["error"] == ("RuntimeError" if r["task"] == "boom" else None)
    profile = busy_profile(leases)
    assert profile["max_per_device"] == {"cpu:0": 1, "cpu:1": 1}
    assert profile["max_overall"] == 2 and profile["fraction_with_devices_busy"][2] > 0
    assert sum(profile["count"].values()) == 5


def test_busy_profile_counts_overlap_per_device_and_over_the_window() -> None:
    def lease(device: str, start: float, end: float) -> dict:
        return {"device": device, "host": "h", "start": 1000 + start, "end": 1000 + end, "start_mono": start, "end_mono": end}

    # cuda:0 busy 0-4 and 4-6 (touching, not overlapping), cuda:1 busy 2-5: both busy 2-5.
    leases = [lease("cuda:0", 0, 4), lease("cuda:0", 4, 6), lease("cuda:1", 2, 5)]
    p = busy_profile(leases, window=(0.0, 10.0))
    assert p["clock"] == "monotonic" and p["window_s"] == 10.0
    assert p["max_per_device"] == {"cuda:0": 1, "cuda:1": 1} and p["max_overall"] == 2
    assert p["seconds_with_devices_busy"] == {0: 4.0, 1: 3.0, 2: 3.0}
    assert p["fraction_with_devices_busy"][2] == pytest.approx(0.3)
    assert p["busy_s"] == {"cuda:0": 6.0, "cuda:1": 3.0}
    # Two leases of one device at once (a broken lock) show up as 2 for that device.
    broken = busy_profile([lease("cuda:0", 0, 4), lease("cuda:0", 3, 5)])
    assert broken["max_per_device"] == {"cuda:0": 2} and broken["window_s"] == 5.0
    assert broken["seconds_with_devices_busy"] == {0: 0.0, 1: 5.0}
    # Records of several hosts fall back to the wall clock and host-qualified device names.
    multi = busy_profile([lease("cuda:0", 0, 1), {**lease("cuda:0", 0, 1), "host": "g"}])
    assert multi["clock"] == "wall" and multi["max_per_device"] == {"g/cuda:0": 1, "h/cuda:0": 1}


def test_read_leases_finds_the_logs_of_a_sweep_folder_and_skips_torn_lines(tmp_path: Path) -> None:
    lock_dir = tmp_path / "locks" / "host-a"
    with lease_device(["cuda:0"], lock_dir, info={"task": "t"}):
        pass
    with open(lock_dir / LEASE_LOG, "a") as fh:
        fh.write('{"device": "cuda:0", "sta')  # a torn last line
    assert [r["task"] for r in read_leases(tmp_path)] == ["t"]
    with lease_device(["cuda:0"], tmp_path / "nolog", log=False):
        pass
    assert not (tmp_path / "nolog" / LEASE_LOG).exists()


# --- which device a worker uses -------------------------------------------------------------------


MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


def test_a_worker_on_cuda_n_sees_gpu_n_alone_and_keeps_the_rest_of_its_environment() -> None:
    env = {**MULTICAST_OFF, "PATH": "/usr/bin"}
    assert pin_worker_device("cuda:1", env) == "cuda:0" and env == {**MULTICAST_OFF, "PATH": "/usr/bin", "CUDA_VISIBLE_DEVICES": "1"}
    env = {"CUDA_VISIBLE_DEVICES": "2, GPU-abc", **MULTICAST_OFF}
    assert pin_worker_device("cuda:1", env) == "cuda:0" and env["CUDA_VISIBLE_DEVICES"] == "GPU-abc"
    env = {"CUDA_VISIBLE_DEVICES": "3"}
    assert pin_worker_device("cuda:1", env) == "cuda:1" and env == {"CUDA_VISIBLE_DEVICES": "3"}, "an unseen GPU is left alone"
    for device in ("cpu", "cuda"):
        env = {"CUDA_VISIBLE_DEVICES": "0,1"}
        assert pin_worker_device(device, env) == device and env == {"CUDA_VISIBLE_DEVICES": "0,1"}
    assert leased_device("cpu:1") == "cpu" and leased_device("cpu") == "cpu" and leased_device("cuda:1") == "cuda:1"


def test_the_evaluation_workers_environment_keeps_the_multicast_switches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from passagent.tools.evaluation.evaluate import worker_environment

    for k, v in MULTICAST_OFF.items():
        monkeypatch.setenv(k, v)
    env = worker_environment(tmp_path, tmp_path)
    pin_worker_device("cuda:1", env)
    assert {k: env.get(k) for k in MULTICAST_OFF} == MULTICAST_OFF


def test_a_cached_ir_inspection_takes_no_lease_and_a_missing_one_does(tmp_path: Path) -> None:
    """Runs whose IR is already cached must not queue behind evaluations for a device."""
    import json as _json

    from helpers import passbench_task

    from passagent.agent.protocols import ToolCall
    from passagent.agent.run.toolbox import PassWorkspace, Toolbox
    from passagent.tools.evaluation.evaluate import EvalOptions
    from passagent.tools.inspection.ir import _cache_file
    from passagent.tools.tasks.loader import load_task

    task = load_task(passbench_task("b511"))
    cache, locks = tmp_path / "cache", tmp_path / "locks"
    sg = task.subgraphs[0]
    # Cached by device type: what an inspection on cuda:0 stored serves cuda:1 as well.
    path = _cache_file(cache, task.path, 0, "cuda:0", sg.digest)
    path.parent.mkdir(parents=True)
    def ir(index: int, device: str) -> dict:
        return {"index": index, "name": f"graphs/{index}", "source": "test", "device": device, "args": [], "op_sequence": [],
                "fx_code": f"def forward(self): pass  # from {device}", "fx_nodes": [], "graph_breaks": 0,
                "aten_code": "", "kernels": [], "output_code_lines": 0}

    path.write_text(_json.dumps(ir(0, "cuda:0")))
    inspected: list[tuple[int, str]] = []

    def inspector(task_path, index, digest, *, device, cache_root, also, gate=None, cpu_threads=1):
        inspected.append((index, device))
        if gate is not None:  # as inspect_isolated does for the profile, the only part that times
            assert gate.pool == [device]
            gate.acquire()
            gate.release()
        return ir(index, device)

    opts = EvalOptions(device="cpu", cache_root=cache, device_pool=["cuda:1"], lock_dir=locks)
    toolbox = Toolbox(task, PassWorkspace(tmp_path / "ws"), opts, inspector=inspector)
    out = toolbox.execute(ToolCall(id="1", name="inspect_ir", arguments={"subgraph": 0}, raw_arguments=""))
    assert not out.is_error, out.text
    assert inspected == [] and read_leases(locks) == [] and "from cuda:0" in out.text
    out = toolbox.execute(ToolCall(id="2", name="inspect_ir", arguments={"subgraph": 1}, raw_arguments=""))
    assert not out.is_error, out.text
    assert inspected == [(1, "cuda:1")]
    assert [(r["device"], r["purpose"]) for r in read_leases(locks)] == [("cuda:1", "inspect_ir")]


def test_an_inspection_cached_for_another_task_is_labelled_as_this_tasks_subgraph(tmp_path: Path) -> None:
    """The inspection cache is keyed by a subgraph's content: a record written for an identical
    subgraph of another task (another index, name and source) must not show that task's labels."""
    import json as _json

    from helpers import passbench_task

    from passagent.agent.protocols import ToolCall
    from passagent.agent.run.toolbox import PassWorkspace, Toolbox
    from passagent.tools.evaluation.evaluate import EvalOptions
    from passagent.tools.inspection.ir import _cache_file
    from passagent.tools.tasks.loader import load_task

    task = load_task(passbench_task("b511"))
    cache = tmp_path / "cache"
    sg = task.subgraphs[0]
    path = _cache_file(cache, "/elsewhere/other_task", 3, "cpu", sg.digest)
    path.parent.mkdir(parents=True)
    path.write_text(_json.dumps({"index": 3, "name": "graphs/3", "source": "other_task", "device": "cpu", "args": [],
                                 "op_sequence": [], "fx_code": "def forward(self): pass", "fx_nodes": [],
                                 "graph_breaks": 0, "aten_code": "", "kernels": [], "output_code_lines": 0}))

    def inspector(*a, **k):
        raise AssertionError("the cached inspection should have served this")

    opts = EvalOptions(device="cpu", cache_root=cache, device_pool=["cpu"], lock_dir=tmp_path / "locks")
    toolbox = Toolbox(task, PassWorkspace(tmp_path / "ws"), opts, inspector=inspector)
    out = toolbox.execute(ToolCall(id="1", name="inspect_ir", arguments={"subgraph": 0}, raw_arguments=""))
    assert not out.is_error, out.text
    assert f"Subgraph [0] {sg.name} (from {sg.source})" in out.text
    assert "graphs/3" not in out.text and "other_task" not in out.text


def test_an_ir_inspection_on_a_second_gpu_sees_that_gpu_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The inspection process gets the evaluation worker's pinning: CUDA_VISIBLE_DEVICES narrowed
    to the leased GPU and ``cuda:0`` as its device (with every GPU visible, a graph's plain 'cuda'
    literal meant GPU 0 and task_032 failed on cuda:1 with tensors on two devices)."""
    import json as _json
    import subprocess

    from passagent.tools.inspection import ir as ir_module

    seen: list[tuple[list[str], dict[str, str]]] = []

    class FakeInspector:  # stands in for the child: records how it was started, writes its result
        def __init__(self, argv, *, env, cwd, **_kw):
            seen.append((list(argv), dict(env)))
            out_dir, indices = Path(argv[5]), [a for a in argv[6:] if not a.startswith("--")]
            for i in indices:
                (out_dir / f"ir_{i}.json").write_text(_json.dumps({"index": int(i), "device": argv[4]}))
            self.returncode, self.pid = 0, 0

        def communicate(self, timeout=None):
            return b"", None

    monkeypatch.setattr(subprocess, "Popen", FakeInspector)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    got = ir_module.inspect_isolated("/tasks/t", 0, "digest-a", device="cuda:1", cache_root=tmp_path)
    (argv, env), = seen
    assert argv[4] == "cuda:0" and env["CUDA_VISIBLE_DEVICES"] == "1" and got["device"] == "cuda:0"
    # An explicit list is narrowed to its N-th entry; the CPU is left alone.
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-a,GPU-b")
    ir_module.inspect_isolated("/tasks/t", 0, "digest-b", device="cuda:1", cache_root=tmp_path)
    assert seen[-1][0][4] == "cuda:0" and seen[-1][1]["CUDA_VISIBLE_DEVICES"] == "GPU-b"
    ir_module.inspect_isolated("/tasks/t", 0, "digest-c", device="cpu", cache_root=tmp_path)
    assert seen[-1][0][4] == "cpu" and seen[-1][1]["CUDA_VISIBLE_DEVICES"] == "GPU-a,GPU-b"
    assert "--threads=1" in seen[-1][0] and seen[-1][1]["OMP_NUM_THREADS"] == "1"  # the evaluation's default
    assert not any(a.startswith("--threads") for a in seen[0][0])  # on CUDA the host threads are left alone
    # The cache stays keyed by device type: cuda:1's inspection serves cuda:0 without a process.
    assert ir_module.inspect_isolated("/tasks/t", 0, "digest-a", device="cuda:0", cache_root=tmp_path) == got
    assert len(seen) == 3
