"""The device lease covers a worker's device steps alone: the ready/go handshake and its record.

Most cases run :func:`run_workers` with a stand-in worker (a small script speaking the worker's
event protocol) that looks at the device's lock file itself at each step, so what is asserted
is whether the lease was really held, not what the parent says; one case runs a real worker.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from passagent.tools.process import isolation
from passagent.tools.process.device_lease import lease_device, read_leases
from passagent.tools.process.lease_gate import LeaseGate, pinned_at_spawn, wait_for_go

FAKE_WORKER = textwrap.dedent('''
    import fcntl, json, os, sys, time
    req = json.load(open(sys.argv[1]))
    mode, lock = os.environ["FAKE_MODE"], os.environ["FAKE_LOCK"]

    def held():  # is the device's lock taken (by the parent's lease)?
        fd = os.open(lock, os.O_CREAT | os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)  # closing drops the lock if this process took it
        return False

    events = open(req["events_path"], "a")
    def emit(kind, **fields):
        events.write(json.dumps({"event": kind, **fields}) + "\\n")
        events.flush()

    obs = {"handshake": req["handshake"], "held_before_ready": held()}
    def save():
        open(os.environ["FAKE_OBS"], "w").write(json.dumps(obs))
    save()
    if mode == "die_before_ready":
        sys.exit(3)
    if mode == "hang_before_ready":
        time.sleep(60)
    emit("ready", before_lease_s={"imports": 1.5, "pass_load": 0.25})
    obs["go"] = json.loads(sys.stdin.readline())
    obs["held_after_go"] = held()
    save()
    emit("device_setup", seconds=0.5)
    if mode == "die_after_go":
        emit("start", subgraph=req["subgraph_indices"][0])
        os._exit(4)
    for i in req["subgraph_indices"]:
        emit("start", subgraph=i)
        emit("result", subgraph=i, phase_s={"inductor": 1.0, "timing": 2.0})
    emit("device_done")
    time.sleep(0.5)  # the parent releases the lease as soon as it reads device_done
    obs["held_after_device_done"] = held()
    save()
    emit("done", max_rss_kb=1)
''')


def fake_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, indices: list[int], timeout_s: float = 30.0,
             pool: list[str] | None = None):
    script = tmp_path / "fake_worker.py"
    script.write_text(FAKE_WORKER)
    monkeypatch.setattr(isolation, "worker_command", lambda request_path: [sys.executable, str(script), str(request_path)])
    locks, workdir = tmp_path / "locks", tmp_path / f"work-{mode}"
    locks.mkdir(exist_ok=True)
    workdir.mkdir()
    obs = tmp_path / f"obs-{mode}.json"
    env = {**os.environ, "FAKE_MODE": mode, "FAKE_LOCK": str(locks / "cpu.lock"), "FAKE_OBS": str(obs)}
    gate = LeaseGate(pool or ["cpu"], locks, {"task": "t", "purpose": "test"})
    request = {"pass_files": [], "device": "cpu"}
    run = isolation.run_workers(request, indices, workdir, timeout_s, env, gate=gate)
    return run, gate, (json.loads(obs.read_text()) if obs.is_file() else None), locks


def lock_is_free(lock: Path) -> bool:
    fd = os.open(lock, os.O_CREAT | os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def test_the_lease_is_taken_only_after_ready_and_released_after_the_last_device_step(tmp_path, monkeypatch) -> None:
    run, gate, obs, locks = fake_run(tmp_path, monkeypatch, "ok", [0, 1])
    assert obs["handshake"] is True
    assert obs["held_before_ready"] is False  # start-up ran with the device free for others
    assert obs["held_after_go"] is True and obs["go"] == {"go": True}  # spawned on the pool's one device
    assert obs["held_after_device_done"] is False  # released before the worker's teardown
    assert sorted(run.results) == [0, 1] and not run.failed
    assert gate.leases == 1 and not gate.held and lock_is_free(locks / "cpu.lock")


def test_the_lease_record_says_what_ran_before_and_inside_it(tmp_path, monkeypatch) -> None:
    fake_run(tmp_path, monkeypatch, "ok", [0, 1])
    [record] = read_leases(tmp_path / "locks")
    assert record["lease_scope"] == "device" and record["purpose"] == "test" and record["device"] == "cpu"
    assert record["before_lease_s"] == {"imports": 1.5, "pass_load": 0.25}
    # Two subgraphs' steps summed, plus the device set-up between the go line and the first one.
    assert record["in_lease_s"] == {"device_setup": 0.5, "inductor": 2.0, "timing": 4.0}
    assert record["error"] is None


def test_a_worker_that_dies_before_ready_takes_no_lease_and_is_reported_as_before(tmp_path, monkeypatch) -> None:
    run, gate, obs, locks = fake_run(tmp_path, monkeypatch, "die_before_ready", [0])
    assert gate.leases == 0 and read_leases(locks) == []
    cls, message, _tail = run.failed[0]
    assert cls == "runtime" and "the worker died (exit code 3)" in message


def test_a_worker_that_dies_under_the_lease_releases_it_and_its_subgraph_fails(tmp_path, monkeypatch) -> None:
    run, gate, obs, locks = fake_run(tmp_path, monkeypatch, "die_after_go", [0])
    assert obs["held_after_go"] is True
    assert gate.leases == 1 and not gate.held and lock_is_free(locks / "cpu.lock")
    [record] = read_leases(locks)
    assert record["in_lease_s"] == {"device_setup": 0.5}
    cls, message, _tail = run.failed[0]
    assert cls == "runtime" and "exit code 4" in message


def test_a_worker_that_hangs_in_start_up_times_out_without_a_lease(tmp_path, monkeypatch) -> None:
    run, gate, obs, locks = fake_run(tmp_path, monkeypatch, "hang_before_ready", [0], timeout_s=1.0)
    cls, message, _tail = run.failed[0]
    assert cls == "timeout" and "start-up" in message
    assert gate.leases == 0 and read_leases(locks) == []


def test_the_go_line_pins_a_worker_of_a_multi_gpu_pool_to_its_leased_gpu(tmp_path) -> None:
    locks = tmp_path / "locks"
    with lease_device(["cuda:0"], locks, log=False):  # cuda:0 busy: the gate gets cuda:1
        gate = LeaseGate(["cuda:0", "cuda:1"], locks)
        assert gate.acquire() == "cuda:1"
        line = json.loads(gate.go_line({"CUDA_VISIBLE_DEVICES": "4,5"}))
        gate.release()
    assert line == {"go": True, "device": "cuda:0", "cuda_visible_devices": "5"}
    # A one-GPU pool pins the worker when it is spawned (cuda:1 is its cuda:0); the go line changes nothing.
    single = LeaseGate(["cuda:1"], locks)
    single.acquire()
    assert json.loads(single.go_line({})) == {"go": True}
    single.release()
    assert pinned_at_spawn(["cuda:1"]) == "cuda:1" and pinned_at_spawn(["cuda:0", "cuda:1"]) is None


def test_a_worker_does_not_go_on_without_a_go_line() -> None:
    import io

    assert wait_for_go(io.StringIO("")) is None  # the parent closed the pipe (it died or gave up)
    assert wait_for_go(io.StringIO("not json\n")) is None
    assert wait_for_go(io.StringIO('{"go": false}\n')) is None
    assert wait_for_go(io.StringIO('{"go": true, "device": "cpu"}\n')) == {"go": True, "device": "cpu"}


def test_the_whole_evaluation_lease_is_kept_as_an_option_and_recorded_as_such(tmp_path, monkeypatch) -> None:
    from helpers import EXAMPLES, passbench_task

    import passagent.tools.evaluation.evaluate as evaluate_module
    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks.loader import load_task

    with pytest.raises(ValueError, match="lease scope"):
        EvalOptions(lease_scope="sometimes")
    seen = []

    def fake_evaluate(task, pass_path, options, gate=None):
        seen.append(gate)
        return SimpleNamespace(subgraphs=[SimpleNamespace(phase_s={"timing": 1.0}), SimpleNamespace(phase_s={"timing": 2.0})])

    monkeypatch.setattr(evaluate_module, "_evaluate", fake_evaluate)
    task = load_task(passbench_task("b511") / "graphs" / "1")
    locks = tmp_path / "locks"
    evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", EvalOptions(device_pool=["cpu"], lock_dir=locks,
                                                                          lease_scope="evaluation"))
    assert seen == [None]  # no handshake: the lease was held around it
    [record] = read_leases(locks)
    assert record["lease_scope"] == "evaluation" and record["in_lease_s"] == {"timing": 3.0}
    evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", EvalOptions(device_pool=["cpu"], lock_dir=locks))
    assert isinstance(seen[1], LeaseGate) and len(read_leases(locks)) == 1  # the gate leases only when a worker is ready


def test_a_real_evaluation_starts_its_processes_before_its_lease(tmp_path, cache_root) -> None:
    from helpers import EXAMPLES, TEST_PASSES, passbench_task

    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks.loader import load_task
    from passagent.tools.measure.timing import TimingConfig

    task = load_task(passbench_task("b511") / "graphs" / "1")
    locks = tmp_path / "locks"
    opts = EvalOptions(cache_root=cache_root, device_pool=["cpu"], lock_dir=locks, timeout_s=120,
                       timing=TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1))
    result = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", opts)
    assert result.subgraphs[0].status == "correct"
    [record] = read_leases(locks)
    assert record["lease_scope"] == "device"
    # The processes' start-up (interpreters, imports, the task, the pass) came before the lease.
    assert record["before_lease_s"]["start_up"] > 0
    assert {"references", "candidate_compile", "correctness", "timing"} <= set(record["in_lease_s"])
    # What the lease covered is at most its length; the start-up was not in it.
    assert sum(record["in_lease_s"].values()) <= record["end"] - record["start"] + 0.05
    # A pass that raises when imported fails before the device is needed: no device was leased.
    failed = evaluate_pass(task, TEST_PASSES / "raises_at_import.py", opts)
    assert failed.subgraphs[0].failure_class == "compile" and "failed to load" in failed.subgraphs[0].message
    assert len(read_leases(locks)) == 1


def test_an_ir_inspection_holds_the_lease_for_its_profile_alone(tmp_path, monkeypatch, cache_root) -> None:
    """While another holds the device, the inspection still produces its FX graph, post-grad graph
    and output code; only its profile waits for the lease."""
    import tempfile
    import threading
    import time

    from helpers import passbench_task

    from passagent.tools.inspection.ir import inspect_isolated
    from passagent.tools.tasks.loader import load_task

    task = load_task(passbench_task("b511"))
    sg = task.subgraphs[1]
    locks, tmp = tmp_path / "locks", tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))  # where inspect_isolated makes its folder
    out: dict = {}
    with lease_device(["cpu"], locks, log=False):  # another evaluation is timing on the device
        gate = LeaseGate(["cpu"], locks, {"task": task.id, "purpose": "inspect_ir"})
        worker = threading.Thread(target=lambda: out.update(ir=inspect_isolated(
            task.path, 1, sg.digest, device="cpu", cache_root=tmp_path / "ir-cache", timeout_s=300, gate=gate)))
        worker.start()
        deadline = time.monotonic() + 600
        while not list(tmp.glob("passagent-ir-*/ready")) and worker.is_alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        [written] = list(tmp.glob("passagent-ir-*/ir_1.json"))
        early = json.loads(written.read_text())
        assert early["fx_code"] and early["aten_code"] and early["kernels"] and "profile" not in early
        assert gate.leases == 0  # ready, and still waiting for the device
    worker.join(600)
    ir = out["ir"]
    assert ir["fx_code"] == early["fx_code"] and ir["profile"]["inductor"] and ir["profile"]["eager"]
    [record] = read_leases(locks)
    assert record["purpose"] == "inspect_ir" and record["lease_scope"] == "device"
    assert set(record["in_lease_s"]) == {"profile"} and record["before_lease_s"]["inspect"] > 0


def test_precompiled_headers_go_to_the_persistent_inductor_cache(tmp_path) -> None:
    """Inductor's precompiled C++ header lands in TORCHINDUCTOR_CACHE_DIR, not in the worker's
    fresh TMPDIR (where every worker rebuilt it, seconds each, even for kernels served by the cache)."""
    import subprocess

    cache, tmp = tmp_path / "inductor", tmp_path / "worker-tmp"
    tmp.mkdir()
    code = textwrap.dedent('''
        import torch
        from passagent.tools.evaluation.steps import persist_precompiled_headers
        persist_precompiled_headers()
        torch.set_num_threads(1)
        f = torch.compile(lambda x: (x * 2).sin() + 1)
        f(torch.randn(64))
    ''')
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(cache), "TMPDIR": str(tmp)}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert list((cache / "precompiled_headers").glob("*.gch")), "no precompiled header in the persistent cache"
    assert not list(tmp.rglob("*.gch")), "a precompiled header was built in the worker's temporary folder"
