"""Compiling before the device lease (tools/process/compile_ahead.py and the clean-room roles' precompile).

On a GPU the candidate process compiles the candidate of every subgraph (at its held-out shapes
too) and the clean process default Inductor before the referee takes the lease, and they only run
them under it. The mechanism is the same on the CPU (where it is off by default, the compiles
would take the leased cores), so these tests force it on there: same verdicts as compiling under
the lease, no compile step inside the lease, and a pass that crashes or hangs while compiled ahead
is blamed on its subgraph and step, with no lease taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from helpers import EXAMPLES, TEST_PASSES, make_sample, passbench_task

from passagent.tools.process.compile_ahead import DeferredBackend, LeaseFlag, NotRunBeforeLease, compile_only, placeholder_inputs, unwrap
from passagent.tools.process.device_lease import read_leases
from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.tasks.loader import load_task
from passagent.tools.measure.timing import TimingConfig

FAST = TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1)
COMPILE_STEPS = {"candidate_compile"}


def _options(tmp_path: Path, cache_root: Path, ahead: bool, **extra) -> EvalOptions:
    return EvalOptions(cache_root=cache_root, device_pool=["cpu"], lock_dir=tmp_path / f"locks-{ahead}", timing=FAST,
                       compile_before_lease=ahead, **{"timeout_s": 120, **extra})


@pytest.fixture(scope="module")
def two_subgraphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PassNet-layout task: subgraph 0 has no normalize (a test pass matches nothing there),
    subgraph 1 is a cat then a normalize (the test passes' patterns)."""
    root = tmp_path_factory.mktemp("two_subgraphs") / "task"
    make_sample(root / "graphs", "0", "y = x * 2.0\nreturn (y,)", {"x": ([16, 64], "float32")})
    make_sample(root / "graphs", "1", "y = torch.cat([x], 1)\nz = torch.nn.functional.normalize(y, p=2, dim=1)\nreturn (z,)",
                {"x": ([16, 64], "float32")})
    (root / "graph_list.txt").write_text("graphs/0\ngraphs/1\n")
    return root


def test_a_deferred_graph_compiles_once_and_runs_only_once_the_lease_is_open() -> None:
    from torch._inductor.compile_fx import compile_fx

    class Net(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.gelu(x).sum(-1) * 2.0

    flag = LeaseFlag()
    backend = DeferredBackend(compile_fx, flag)
    compiled = torch.compile(Net(), backend=backend)
    x = torch.randn(8, 32)
    assert compile_only(compiled, placeholder_inputs([x], torch.device("cpu"))) is None
    assert (backend.compiles_ahead, backend.compiles_in_lease) == (1, 0)
    with pytest.raises(NotRunBeforeLease), torch.no_grad():
        compiled(x)  # compiled, not runnable: nothing may run before the lease
    flag.open()
    assert unwrap(type(compiled._orig_mod).forward.__globals__) == 1  # the deferral leaves the call path
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), Net()(x))
    assert (backend.compiles_ahead, backend.compiles_in_lease) == (1, 0), "the first real call recompiled"


def test_compiling_ahead_gives_the_same_verdicts_with_no_compile_in_the_lease(tmp_path: Path, cache_root: Path) -> None:
    task = load_task(passbench_task("b511"))
    results = {}
    for ahead in (False, True):
        # The second is marked as a confirmation's re-evaluation: its lease record says so, the first names no purpose.
        opts = _options(tmp_path, cache_root, ahead, lease_purpose="confirmation" if ahead else None)
        results[ahead] = evaluate_pass(task, EXAMPLES / "b511_pooler_dir", opts)
        [record] = read_leases(opts.lock_dir)
        assert record.get("purpose") == ("confirmation" if ahead else None) and record["task"] == task.id
        if ahead:
            assert "compile" in record["before_lease_s"], record["before_lease_s"]
            assert not COMPILE_STEPS & set(record["in_lease_s"]), record["in_lease_s"]
        else:
            assert "compile" not in record["before_lease_s"] and "candidate_compile" in record["in_lease_s"]
    for off, on in zip(results[False].subgraphs, results[True].subgraphs):
        assert (on.status, on.failure_class, on.matches) == (off.status, off.failure_class, off.matches)
        assert [(r.rule, r.matches) for r in on.rules] == [(r.rule, r.matches) for r in off.rules]
        assert on.status == "correct" and "candidate" in on.times
        # Both variants were compiled ahead, and so was the held-out shape (predicted on fake tensors).
        assert set(on.before_lease_s) == {"inductor", "candidate"} and on.compiles_in_lease == 0
        assert off.before_lease_s == {} and off.compiles_in_lease is None


def test_a_pass_that_raises_compiling_ahead_fails_as_at_its_first_call(tmp_path: Path, cache_root: Path,
                                                                      two_subgraphs: Path) -> None:
    task = load_task(two_subgraphs)
    off, on = (evaluate_pass(task, TEST_PASSES / "raises_in_replacement.py", _options(tmp_path, cache_root, a, static_checks=False))
               for a in (False, True))
    for a, b in zip(off.subgraphs, on.subgraphs):
        assert (b.failure_class, b.message, b.matches) == (a.failure_class, a.message, a.matches)
    assert "raised ZeroDivisionError" in (on.subgraphs[1].message or "")
    assert "raises_in_replacement.py" in (on.subgraphs[1].traceback or "")


def test_a_crash_compiling_ahead_is_blamed_on_its_subgraph_and_step(tmp_path: Path, cache_root: Path,
                                                                    two_subgraphs: Path) -> None:
    # The pass crashes the second time it is traced in a process: in the first candidate process,
    # compiling subgraph 1 ahead (subgraph 0 compiled cleanly). Held-out shapes off: they would be
    # compiled too.
    opts = _options(tmp_path, cache_root, True, static_checks=False, heldout_shapes=False)
    result = evaluate_pass(load_task(two_subgraphs), TEST_PASSES / "segfault_in_rewrite.py", opts)
    clean, crashed = result.subgraphs
    assert crashed.failure_class == "compile" and "while candidate rewrite" in (crashed.message or ""), crashed.message
    assert "SIGSEGV" in (crashed.message or "")
    # Subgraph 0 (no normalize in it) is evaluated under the one lease the evaluation took.
    assert clean.failure_class == "compile" and "matched nothing" in (clean.message or ""), clean.message
    assert len(read_leases(opts.lock_dir)) == 1, "the crash happened before the device was asked for"


def test_a_hang_compiling_ahead_times_out_in_its_step_with_no_lease(tmp_path: Path, cache_root: Path) -> None:
    task = load_task(make_sample(tmp_path, "normalize", "y = torch.nn.functional.normalize(x, p=2, dim=1)\nreturn (y,)",
                                 {"x": ([16, 64], "float32")}))
    opts = _options(tmp_path, cache_root, True, static_checks=False, timeout_s=20)
    [s] = evaluate_pass(task, TEST_PASSES / "hang_in_rewrite.py", opts).subgraphs
    assert s.failure_class == "timeout" and "'candidate_rewrite'" in (s.message or ""), s.message
    assert read_leases(opts.lock_dir) == []


def test_a_crash_compiling_the_heldout_shape_ahead_keeps_the_measurement(tmp_path: Path, cache_root: Path) -> None:
    # The held-out shape is compiled ahead too; a pass that dies there is compiled again without it
    # in a new process, so it is measured first and fails the held-out step, as it does compiled
    # under the lease.
    task = load_task(make_sample(tmp_path, "normalize", "y = torch.nn.functional.normalize(x, p=2, dim=1)\nreturn (y,)",
                                 {"x": ([16, 64], "float32")}))
    opts = _options(tmp_path, cache_root, True, static_checks=False)
    [s] = evaluate_pass(task, TEST_PASSES / "segfault_compiling_heldout_shape.py", opts).subgraphs
    assert (s.status, s.integrity_rule) == ("integrity", "shape_special_case"), s.message
    assert "heldout_shape" in (s.message or "") and "SIGSEGV" in (s.message or "")
    assert "eager" in s.times and "candidate" not in s.times
