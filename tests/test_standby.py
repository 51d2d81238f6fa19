"""Pre-started evaluation workers (tools/standby.py): adopted by the next evaluation with the same
settings, confined like any worker, never handed a request with another sandbox, and replaced by a
fresh worker when they died. Real worker processes and Inductor compiles on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from helpers import EXAMPLES, passbench_task

from passagent.tools.evaluate import EvalOptions, evaluate_pass
from passagent.tools.standby import READY_FILE, StandbyPool, launch_key
from passagent.tools.tasks import load_task
from passagent.tools.timing import TimingConfig

FAST_TIMING = TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1)
PRESTARTED = "pre-started: confined before its imports, then handed this request"


def _options(cache_root: Path, **kw) -> EvalOptions:
    return EvalOptions(cache_root=cache_root, timing=FAST_TIMING, timeout_s=120, standby=True, **kw)


def test_the_next_evaluation_is_served_by_the_prestarted_worker(cache_root: Path, monkeypatch) -> None:
    from passagent.tools import evaluate as evaluate_module

    pool = StandbyPool()
    monkeypatch.setattr(evaluate_module, "POOL", pool)
    task = load_task(passbench_task("b511") / "graphs" / "1")
    try:
        first = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        assert PRESTARTED not in first.sandbox  # nothing was pre-started for the first one
        assert len(pool) == 1 and pool.wait_ready(180)
        waiting = pool._standbys[0]
        assert waiting.alive() and (waiting.workdir / READY_FILE).is_file()

        second = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        assert PRESTARTED in second.sandbox
        # Confined like any worker: writes, resource limits, the request's own CPU-time limit.
        assert any(line.startswith("writes: ") for line in second.sandbox)
        assert any(line.startswith("RLIMIT_CPU=") for line in second.sandbox)
        assert [s.status for s in second.subgraphs] == [s.status for s in first.subgraphs] == ["correct"]
        assert second.subgraphs[0].matches == first.subgraphs[0].matches == 1
        # It served one evaluation and ended; its folder is gone; a successor waits.
        assert waiting.proc.poll() is not None and not waiting.workdir.exists()
        assert len(pool) == 1 and pool._standbys[0] is not waiting

        # Other settings (another thread count: another environment) never adopt it.
        other = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root, cpu_threads=2))
        assert PRESTARTED not in other.sandbox
    finally:
        pool.close()
    assert len(pool) == 0


def test_a_dead_standby_is_replaced_by_a_fresh_worker(cache_root: Path, monkeypatch) -> None:
    from passagent.tools import evaluate as evaluate_module

    pool = StandbyPool()
    monkeypatch.setattr(evaluate_module, "POOL", pool)
    task = load_task(passbench_task("b511") / "graphs" / "1")
    try:
        evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        dead = pool._standbys[0]
        dead.proc.kill()
        dead.proc.wait()
        result = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        assert PRESTARTED not in result.sandbox and result.subgraphs[0].status == "correct"
    finally:
        pool.close()


def _standby_process(tmp_path: Path, sandbox: dict | None) -> tuple[subprocess.Popen, Path]:
    spec = tmp_path / "standby.json"
    spec.write_text(json.dumps({"sandbox": sandbox, "device_type": "cpu", "ready_path": str(tmp_path / READY_FILE)}))
    # Inductor's caches and temporary files inside the folder it may write to, as for a worker.
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "inductor"), "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "passagent.tools.worker_entry", "--standby", str(spec)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=tmp_path, env=env)
    return proc, tmp_path / READY_FILE


def test_a_standby_refuses_a_request_with_another_sandbox(tmp_path: Path) -> None:
    box = {"open_files": 4096, "writable_dirs": [str(tmp_path)], "network": "not isolated"}
    proc, ready = _standby_process(tmp_path, box)
    request = tmp_path / "request.json"
    # Another writable folder than the one it was confined to: refused before anything runs.
    request.write_text(json.dumps({"sandbox": {**box, "writable_dirs": ["/"], "cpu_seconds": 100}}))
    out, _ = proc.communicate(f"{request}\n".encode(), timeout=180)
    assert proc.returncode == 3, out
    assert b"not the one this worker was started with" in out
    assert ready.is_file()  # it had done its imports


def test_a_standby_exits_when_its_parent_closes_the_pipe(tmp_path: Path) -> None:
    proc, ready = _standby_process(tmp_path, None)
    deadline = time.monotonic() + 180
    while not ready.is_file() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ready.is_file()
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def test_the_launch_key_ignores_the_folder_and_the_cpu_time_limit() -> None:
    a = launch_key("cpu", {"TMPDIR": "/tmp/a", "X": "1"}, {"writable_dirs": ["/tmp/a", "/c"], "cpu_seconds": 10}, True, Path("/tmp/a"))
    b = launch_key("cpu", {"TMPDIR": "/tmp/b", "X": "1"}, {"writable_dirs": ["/tmp/b", "/c"], "cpu_seconds": 99}, True, Path("/tmp/b"))
    assert a == b
    assert a != launch_key("cpu", {"TMPDIR": "/tmp/b", "X": "2"}, {"writable_dirs": ["/tmp/b", "/c"]}, True, Path("/tmp/b"))
    assert a != launch_key("cuda", {"TMPDIR": "/tmp/b", "X": "1"}, {"writable_dirs": ["/tmp/b", "/c"]}, True, Path("/tmp/b"))
    assert a != launch_key("cpu", {"TMPDIR": "/tmp/b", "X": "1"}, {"writable_dirs": ["/tmp/b", "/c"]}, False, Path("/tmp/b"))


def test_a_prestarted_worker_takes_the_device_lease_handshake(cache_root: Path, tmp_path: Path, monkeypatch) -> None:
    """In a device pool (sweeps) the pre-started worker reports ready, waits for the lease's go
    line on the same standard input its request came on, and the lease records its steps."""
    from passagent.tools import evaluate as evaluate_module
    from passagent.tools.device_lease import read_leases

    pool = StandbyPool()
    monkeypatch.setattr(evaluate_module, "POOL", pool)
    task = load_task(passbench_task("b511") / "graphs" / "1")
    opts = _options(cache_root, device_pool=["cpu"], lock_dir=tmp_path / "locks")
    try:
        evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", opts)
        assert pool.wait_ready(180)
        result = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", opts)
    finally:
        pool.close()
    assert PRESTARTED in result.sandbox and result.subgraphs[0].status == "correct"
    leases = read_leases(tmp_path / "locks")
    assert len(leases) == 2 and all(r["lease_scope"] == "device" and "timing" in r["in_lease_s"] for r in leases)
