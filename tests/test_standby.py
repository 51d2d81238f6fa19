"""Pre-started candidate processes (``EvalOptions(standby=True)``, ``STANDBY_POOL`` in
tools/evaluation/child.py): adopted by the next evaluation with the same launch settings, confined
like any candidate, never handed an evaluation with other settings, and replaced by a fresh process
when they died. Real child processes and Inductor compiles on the CPU."""

from __future__ import annotations

from pathlib import Path

from helpers import EXAMPLES, passbench_task

from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.evaluation import child as child_module
from passagent.tools.evaluation.child import ChildPool, Launch
from passagent.tools.tasks.loader import load_task
from passagent.tools.measure.timing import TimingConfig

FAST_TIMING = TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1)
PRESTARTED = "pre-started: confined before its imports, then handed this evaluation"


def _options(cache_root: Path, **kw) -> EvalOptions:
    return EvalOptions(cache_root=cache_root, timing=FAST_TIMING, timeout_s=120, standby=True, **kw)


def _fresh_pool(monkeypatch) -> ChildPool:
    from passagent.tools.evaluation import referee

    pool = ChildPool(size=1)
    monkeypatch.setattr(referee, "STANDBY_POOL", pool)
    return pool


def test_the_next_evaluation_is_served_by_the_prestarted_candidate(cache_root: Path, monkeypatch) -> None:
    pool = _fresh_pool(monkeypatch)
    task = load_task(passbench_task("b511") / "graphs" / "1")
    try:
        first = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        assert PRESTARTED not in first.sandbox  # nothing was pre-started for the first one
        assert len(pool) == 1 and pool.wait_ready(180)
        (_key, waiting), = pool._items
        assert waiting.alive() and waiting.ready_info is not None

        second = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        assert PRESTARTED in second.sandbox
        # Confined like any candidate: its writes and resource limits are listed.
        assert any(line.startswith("writes: ") for line in second.sandbox)
        assert [s.status for s in second.subgraphs] == [s.status for s in first.subgraphs] == ["correct"]
        assert second.subgraphs[0].matches == first.subgraphs[0].matches == 1
        # It served one evaluation and ended; its folder is gone; a successor waits.
        assert not waiting.alive() and not waiting.workdir.exists()
        assert len(pool) == 1 and pool._items[0][1] is not waiting

        # Other settings (another thread count: another environment) never adopt it.
        other = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root, cpu_threads=2))
        assert PRESTARTED not in other.sandbox and other.subgraphs[0].status == "correct"
    finally:
        pool.close()
    assert len(pool) == 0


def test_a_dead_prestarted_candidate_is_replaced_by_a_fresh_one(cache_root: Path, monkeypatch) -> None:
    pool = _fresh_pool(monkeypatch)
    task = load_task(passbench_task("b511") / "graphs" / "1")
    try:
        evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        (_key, dead), = pool._items
        dead.kill()
        result = evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py", _options(cache_root))
        assert PRESTARTED not in result.sandbox and result.subgraphs[0].status == "correct"
    finally:
        pool.close()


def test_the_launch_key_ignores_the_folder_only() -> None:
    def launch(folder: str, **kw) -> Launch:
        base = dict(role="candidate", device="cpu", env={"TMPDIR": folder, "X": "1"},
                    sandbox={"writable_dirs": [folder, "/c"]}, cpu_threads=1)
        return Launch(**{**base, **kw})

    a = launch("/tmp/a").key(Path("/tmp/a"))
    assert a == launch("/tmp/b").key(Path("/tmp/b"))
    assert a != launch("/tmp/b", env={"TMPDIR": "/tmp/b", "X": "2"}).key(Path("/tmp/b"))
    assert a != launch("/tmp/b", device="cuda:0").key(Path("/tmp/b"))
    assert a != launch("/tmp/b", sandbox=None).key(Path("/tmp/b"))
    assert a != launch("/tmp/b", cpu_threads=2).key(Path("/tmp/b"))
    assert a != launch("/tmp/b", role="clean").key(Path("/tmp/b"))


class _FakeChild:
    def __init__(self, tmp_path: Path, name: str, alive: bool = True):
        self.workdir = tmp_path / name
        self.workdir.mkdir()
        self._alive = alive
        self.killed = False

    def alive(self) -> bool:
        return self._alive and not self.killed

    def kill(self) -> None:
        self.killed = True


def test_the_pool_ends_the_oldest_past_its_size_and_skips_dead_children(tmp_path: Path) -> None:
    pool = ChildPool(size=2)
    try:
        old, mid, new = (_FakeChild(tmp_path, n) for n in ("old", "mid", "new"))
        pool.put("k", old)
        pool.put("k", mid)
        pool.put("j", new)
        assert old.killed and not old.workdir.exists()  # the oldest ended, its folder removed
        assert len(pool) == 2
        mid._alive = False
        assert pool.take("k") is None  # the only one under "k" died: dropped, not handed out
        assert mid.killed and not mid.workdir.exists() and len(pool) == 1
        assert pool.take("j") is new and len(pool) == 0
        assert pool.take("j") is None
    finally:
        pool.close()


def test_a_prestarted_candidate_takes_the_device_lease(cache_root: Path, tmp_path: Path, monkeypatch) -> None:
    """In a device pool (sweeps) the pre-started candidate's evaluation leases the device like any
    other, and the lease log records the steps held under it."""
    from passagent.tools.process.device_lease import read_leases

    pool = _fresh_pool(monkeypatch)
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


def test_the_module_pools_are_bounded() -> None:
    assert child_module.STANDBY_POOL.size == 1 and child_module.CLEAN_POOL.size >= 1
