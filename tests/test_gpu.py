"""The CUDA path: the same evaluations on a GPU (skipped without CUDA; run on the H200 by
``benchmarks/gpu_check.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXAMPLES, GRAPHNET, TEST_PASSES, passbench_task

from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.tasks.loader import load_task

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize(
    "task_prefix, pass_file",
    [("b511", "b511_pooler_dir"), ("623d", "623d_drop_dead_rand.py")],
)
def test_example_pass_on_shared_task_on_cuda(task_prefix: str, pass_file: str, cache_root: Path) -> None:
    result = evaluate_pass(load_task(passbench_task(task_prefix)), EXAMPLES / pass_file, EvalOptions(device="cuda", cache_root=cache_root))
    assert result.device_name.startswith("NVIDIA")
    for s in result.subgraphs:
        # On the H200, default Inductor itself differs from eager beyond t=-5 on the half-precision
        # 623d subgraphs (seen 2026-11-29: correct only from t=-3/-2); the pass must be no worse.
        assert s.status == "correct" or (
            s.status == "accuracy" and s.candidate_error.min_correct_t <= s.inductor_error.min_correct_t
        ), s.message
        assert s.matches >= 1
        assert s.inductor_error is not None
        for name in ("eager", "candidate"):
            assert s.times[name].kernel_median_us is not None and s.times[name].kernel_median_us > 0
            assert s.times[name].median_us >= s.times[name].kernel_median_us * 0.5
            assert s.times[name].graph_median_us is not None and 0 < s.times[name].graph_median_us
            assert s.times[name].p10_us is not None and 0 < s.times[name].p10_us <= s.times[name].median_us


def test_wrong_maths_is_caught_on_cuda(cache_root: Path) -> None:
    task = load_task(passbench_task("b511") / "graphs" / "1")
    result = evaluate_pass(task, TEST_PASSES / "wrong_maths.py", EvalOptions(device="cuda", cache_root=cache_root))
    assert result.subgraphs[0].status == "accuracy"


def test_cpu_captured_literals_run_on_cuda(cache_root: Path) -> None:
    # tapas hard-codes device(type="cpu"); on CUDA the literals are rewritten.
    result = evaluate_pass(load_task(GRAPHNET / "hf__google__tapas-base-masklm"), TEST_PASSES / "no_match.py",
                           EvalOptions(device="cuda", cache_root=cache_root))
    assert result.subgraphs[0].status == "compile"  # the pass does not match; the task ran


def _compile_state(backend=None, module=None, args=None) -> str:
    """What Dynamo did in this process, for a failure message: an in-process compile that never
    reached its backend (graphs captured 0) points at Dynamo skipping the frame, not at the pass.
    With ``module`` and ``args``: Dynamo's trace-rule verdict on its ``forward`` and what
    ``torch._dynamo.explain`` finds there (graphs, graph breaks)."""
    import os

    import torch._dynamo.trace_rules
    import torch._dynamo.utils

    seen = f"graphs captured {len(backend.graphs_before)}, matches {backend.total_matches}; " if backend is not None else ""
    env = {k: v for k, v in os.environ.items() if k.startswith(("TORCHDYNAMO", "TORCH_COMPILE", "TORCHINDUCTOR"))}
    counters = {k: dict(v) for k, v in torch._dynamo.utils.counters.items() if v and k != "frames"}
    text = (f"{seen}dynamo frames {dict(torch._dynamo.utils.counters['frames'])}; other counters {counters}; "
            f"environment {env}")
    if module is not None:
        code = module.forward.__code__
        verdict = torch._dynamo.trace_rules.check_verbose(code)
        text += f"; forward {code.co_filename}:{code.co_firstlineno} skipped={verdict.skipped} ({verdict.reason})"
        try:
            torch._dynamo.reset()
            found = torch._dynamo.explain(module)(*args)
            text += (f"; explain: {found.graph_count} graphs, {found.graph_break_count} breaks, "
                     f"ops per graph {[len(ops) for ops in found.ops_per_graph or []]}, "
                     f"breaks {[str(b.reason)[:200] for b in found.break_reasons]}")
        except Exception as exc:  # noqa: BLE001 - a diagnostic: report, never mask the assertion
            text += f"; explain raised {type(exc).__name__}: {str(exc)[:300]}"
    return text


RMS_TRITON = EXAMPLES / "task035_rms_norm_triton"
RMS_TASK = Path(__file__).resolve().parent.parent / "bench" / "tasks" / "task_035"


def test_triton_example_pass_on_cuda(cache_root: Path) -> None:
    pytest.importorskip("triton")
    result = evaluate_pass(load_task(RMS_TASK), RMS_TRITON, EvalOptions(device="cuda", cache_root=cache_root))
    assert {d for s in result.subgraphs for d in s.dtypes} == {"float32", "float16", "bfloat16"}
    for s in result.subgraphs:
        assert s.status == "correct", s.message
        assert s.matches == 1
        assert s.candidate_error is not None and s.candidate_error.min_correct_t <= -5


def test_inductor_compiles_the_user_triton_kernel() -> None:
    pytest.importorskip("triton")
    import torch
    import torch._dynamo
    from torch._inductor.utils import run_and_get_code

    from passagent.tools.passes.backend import PassBackend
    from passagent.tools.tasks.inputs import synthesize_inputs
    from passagent.tools.passes.rules import load_rules
    from passagent.tools.evaluation.steps import build_module

    torch._dynamo.reset()
    sg = load_task(RMS_TASK).subgraphs[1]  # float16
    module = build_module(sg, torch.device("cuda"), "gpu")
    args = [a.cuda() if isinstance(a, torch.Tensor) else a for a in synthesize_inputs(sg, seed=0)]
    backend = PassBackend(load_rules(RMS_TRITON))
    out, code = run_and_get_code(torch.compile(module, backend=backend), *args)
    assert backend.triton_ops and any("_rms_norm_kernel" in c for c in code), _compile_state(backend, module, args)  # inlined, not a fallback
    torch.testing.assert_close(out[0], module(*args)[0], rtol=1e-2, atol=1e-2)


def test_edited_triton_kernel_under_the_same_name_is_what_runs(cache_root: Path, tmp_path: Path) -> None:
    pytest.importorskip("triton")
    import shutil

    edited = tmp_path / "edited"
    shutil.copytree(RMS_TRITON, edited)
    f32 = edited / "rms_norm_f32.py"
    source = f32.read_text()
    doubled = source.replace("out = w.to(tl.float32) * (x * inv_rms)", "out = 2.0 * w.to(tl.float32) * (x * inv_rms)")
    assert doubled != source, "the kernel line this test edits has changed"
    f32.write_text(doubled)
    task = load_task(RMS_TASK / "graphs" / "0")
    opts = EvalOptions(device="cuda", cache_root=cache_root)
    assert evaluate_pass(task, RMS_TRITON, opts).subgraphs[0].status == "correct"
    assert evaluate_pass(task, edited, opts).subgraphs[0].status == "accuracy"  # same names, new kernel


def test_cuda_graph_replay_times_device_work_and_skips_uncapturable_calls() -> None:
    import torch

    from passagent.tools.measure.timing import TimingConfig, time_interleaved

    x = torch.randn(2048, 2048, device="cuda")

    def many_small(a):  # 200 launches on 256 elements: host-bound end to end, cheap on the device
        b = a[0, :256]  # (on all of ``a`` the adds were device-bound: 1.6 ms of memory traffic, H200 2026-11-29)
        for _ in range(200):
            b = b + 1
        return b

    def one_matmul(a):
        return a @ a

    def host_sync(a):  # .item() synchronises: cannot be captured in a CUDA graph
        return a * a.sum().item()

    stats = time_interleaved({"small": many_small, "mm": one_matmul}, lambda i: [x.clone()], device="cuda",
                             config=TimingConfig.for_device("cuda"))
    for s in stats.values():
        assert s.graph_median_us is not None and s.graph_median_us > 0
    # Replaying the graph removes the 200 launches' host overhead, not the matmul's device time.
    assert stats["small"].graph_median_us < 0.8 * stats["small"].median_us
    assert stats["mm"].graph_median_us > 0.5 * stats["mm"].kernel_median_us
    synced = time_interleaved({"sync": host_sync}, lambda i: [x.clone()], device="cuda", config=TimingConfig.for_device("cuda"))
    assert synced["sync"].graph_median_us is None and synced["sync"].median_us > 0
    assert torch.cuda.is_current_stream_capturing() is False
    torch.ones(1, device="cuda").add_(1)  # the stream still works after the failed capture
    torch.randn(4, device="cuda")  # and so does the RNG (a failed capture used to leave it "capturing")


def test_graph_replay_guard_keeps_host_time_out_of_device_time() -> None:
    import time

    import torch

    from passagent.tools.measure.timing import GUARD_US, MIN_KEPT_REPLAYS, _CudaClock, graph_replay_medians, sleep_cycles_per_us

    dev = torch.device("cuda")
    assert sleep_cycles_per_us(dev) > 100  # GPU clocks run at hundreds of MHz or more

    x = torch.ones(65536, device=dev)  # not randn: this test must not depend on the RNG state others leave
    side = torch.cuda.Stream(dev)
    side.wait_stream(torch.cuda.current_stream(dev))
    with torch.cuda.stream(side):
        x.mul_(1.0001)
    torch.cuda.current_stream(dev).wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        x.mul_(1.0001)

    class SlowSubmit:  # the host needs 3 ms to submit the replay (a loaded CPU)
        def replay(self) -> None:
            time.sleep(0.003)
            graph.replay()

    unguarded = _CudaClock(dev, guard=False)
    assert unguarded.replay(SlowSubmit()) > 2000  # the defect: host time counted as device time
    clock = _CudaClock(dev)
    quick = [clock.replay(graph) for _ in range(20)]
    assert sum(t is not None for t in quick) >= 15 and all(0 < t < 100 for t in quick if t is not None)
    assert clock.guard_us >= GUARD_US and clock.spin_us is not None and clock.spin_us > 0
    dropped, guard = clock.outrun, clock.guard_us
    assert clock.replay(SlowSubmit()) is None  # with the guard: dropped, not timed
    assert clock.outrun == dropped + 1 and clock.guard_us > guard

    info: dict = {}
    medians = graph_replay_medians({"mul": lambda a: a * 1.0001}, [x], dev, info=info)
    assert 0 < medians["mul"] < 100 and info["kept"]["mul"] >= MIN_KEPT_REPLAYS and info["guard_us"] >= GUARD_US
    assert info["attempted"]["mul"] - info["kept"]["mul"] == info["dropped"]  # one variant: its drops are all of them


def test_profiled_evaluation_on_cuda_shows_device_kernels_and_the_user_triton_kernel(cache_root: Path) -> None:
    from passagent.agent.run.condense import describe_profile

    pytest.importorskip("triton")
    task = load_task(RMS_TASK / "graphs" / "0")  # float32
    result = evaluate_pass(task, RMS_TRITON, EvalOptions(device="cuda", cache_root=cache_root, profile=True))
    s = result.subgraphs[0]
    assert s.status == "correct", s.message
    assert s.profile is not None and s.profile.time == "device" and s.profile.error is None, s.profile
    for variant in (s.profile.inductor, s.profile.candidate):
        assert variant is not None and variant.kernel_us > 0
        assert any(k.kind == "kernel" and k.us_per_run > 0 for k in variant.kernels)
    # The pass's own Triton kernel runs in the candidate, not in default Inductor.
    candidate = {k.name for k in s.profile.candidate.kernels}
    assert any("rms_norm_kernel" in n for n in candidate), candidate
    assert not any("rms_norm_kernel" in k.name for k in s.profile.inductor.kernels)
    text, ok = describe_profile(result, [0], "on CUDA")
    assert ok and "device time of each kernel" in text


def test_exact_float32_conv_is_correct_against_a_reference_without_tf32(cache_root: Path, tmp_path: Path) -> None:
    """cuDNN runs float32 convolutions in TF32 by default (relative error ~1e-3); the reference runs
    without it, so a pass that computes the convolution exactly agrees with it to float32's own
    rounding: at t <= -3 on every draw (the 3x-spread draw's outputs reach ~200, where float32
    eager's own rounding exceeds t = -5's rtol 1.3e-6; seen on an H100: -3), at least two levels
    stricter than default Inductor, which keeps TF32 (seen: t = 0). Against a TF32 reference the
    exact pass would sit at Inductor's level."""
    import torch

    from passagent.tools.redteam.samples import write_sample

    assert torch.backends.cudnn.allow_tf32, "PyTorch's default, kept for timing"
    result = evaluate_pass(load_task(write_sample(tmp_path, "conv32")), TEST_PASSES / "honest" / "exact_conv.py",
                           EvalOptions(device="cuda", cache_root=cache_root))
    s = result.subgraphs[0]
    assert s.candidate_error is not None and s.inductor_error is not None, s.message
    assert s.candidate_error.min_correct_t <= -3, s.message
    assert s.candidate_error.min_correct_t <= s.inductor_error.min_correct_t - 2, s.message


def test_policy_generated_kernel_pass_is_correct_and_inlined_on_cuda(cache_root: Path, tmp_path: Path) -> None:
    """The built-in policy's generated-kernel candidate for task_035 (one rule file per dtype):
    every subgraph matched once by its own dtype's rule and correct at t = -5 on the GPU, and the
    kernel compiled into Inductor's output code (not called through the launcher)."""
    pytest.importorskip("triton")
    import json

    import torch
    import torch._dynamo
    from torch._inductor.utils import run_and_get_code

    from passagent.tools.passes.backend import PassBackend
    from passagent.tools.tasks.inputs import synthesize_inputs
    from passagent.tools.passes.rules import load_rules
    from passagent.tools.evaluation.steps import build_module

    from passagent.agent.builtin.recipes import generated_kernel_candidate as kernel_candidate

    task = load_task(RMS_TASK)
    drafts = kernel_candidate(task)
    probe = task.subgraphs[0]  # the diagnostic's module, built only when the assertion fails
    assert len(drafts) == 3, _compile_state(None, build_module(probe, torch.device("cpu"), "probe"),  # float32, float16, bfloat16
                                            synthesize_inputs(probe, seed=0))
    for d in drafts:
        (tmp_path / f"{d.rule_name}.py").write_text(d.source)
    (tmp_path / "sorted_output_pass_rule_names.json").write_text(json.dumps([d.rule_name for d in drafts]))
    result = evaluate_pass(task, tmp_path, EvalOptions(device="cuda", cache_root=cache_root, timing_budget_s=0.2))
    for s in result.subgraphs:
        assert s.status == "correct" and s.matches == 1, (s.name, s.status, s.message)
        assert s.candidate_error is not None and s.candidate_error.min_correct_t <= -5
    torch._dynamo.reset()
    sg = task.subgraphs[1]  # float16
    module = build_module(sg, torch.device("cuda"), "gpu")
    args = [a.cuda() if isinstance(a, torch.Tensor) else a for a in synthesize_inputs(sg, seed=0)]
    backend = PassBackend(load_rules(tmp_path))
    _, code = run_and_get_code(torch.compile(module, backend=backend), *args)
    assert backend.triton_ops and any("_fusedkernel_kernel" in c for c in code), _compile_state(backend)
    calls = [ln for c in code for ln in c.splitlines() if "torch.ops.passagent_" in ln and not ln.lstrip().startswith("#")]
    assert calls == []  # no call of the custom op, whose Python launcher would run per call


def test_reseed_gives_torch_manual_seeds_streams_on_cuda() -> None:
    """The timed calls' cheap seeding draws the same random numbers as torch.manual_seed, on the
    CPU and on the GPU, so a graph with random ops matches its reference."""
    import torch

    from passagent.tools.evaluation.steps import reseed

    torch.zeros(1, device="cuda")  # CUDA started, as in a worker by its first call
    reseed(123)
    got = (torch.rand(4), torch.rand(4, device="cuda"), torch.randn(3, device="cuda"))
    torch.manual_seed(123)
    want = (torch.rand(4), torch.rand(4, device="cuda"), torch.randn(3, device="cuda"))
    assert all(torch.equal(a, b) for a, b in zip(got, want))


def test_secret_draws_are_made_on_the_gpu_from_the_same_distribution() -> None:
    """``on_device`` draws (the timing step's secret draws, the held-out shape) are made on the
    GPU by its own RNG: the shapes, dtypes and bounds of the host draws, other values, and a task's
    weights keep their recorded spread."""
    import torch

    from passagent.tools.tasks.inputs import synthesize_inputs

    sg = load_task(passbench_task("623d")).subgraphs[0]
    host = synthesize_inputs(sg, 0, seed=11, device="cuda")
    dev = synthesize_inputs(sg, 0, seed=11, device="cuda", on_device=True)
    again = synthesize_inputs(sg, 0, seed=11, device="cuda", on_device=True)
    for spec, h, d, a in zip(sg.args, host, dev, again):
        if not isinstance(h, torch.Tensor):
            assert h == d
            continue
        assert d.device.type == "cuda" and d.shape == h.shape and d.dtype == h.dtype and torch.equal(d, a)
        if spec.meta.data is None and h.numel() > 1000 and h.dtype.is_floating_point:
            assert not torch.equal(d, h)  # another RNG
            # Two independent samples of n: their means differ by std * sqrt(2 / n) and their
            # standard deviations by about std / sqrt(n), one standard error each; six allowed.
            n, std = h.numel(), float(h.float().std())
            assert abs(float(d.float().std()) - std) < 6 * std / n ** 0.5 + 1e-6
            assert abs(float(d.float().mean()) - float(h.float().mean())) < 6 * std * (2 / n) ** 0.5 + 1e-6
        if spec.meta.min_val is not None:
            assert float(d.min()) >= spec.meta.min_val
        if spec.meta.max_val is not None:
            assert float(d.max()) <= spec.meta.max_val


def test_prestarted_candidate_serves_the_next_evaluation_on_cuda(cache_root: Path) -> None:
    """A pre-started candidate process has run no pass code; handed the next evaluation it runs on
    the GPU like a fresh one, and its baseline-only budget applies to a pass that matches nothing."""
    from passagent.tools.evaluation.child import STANDBY_POOL

    task = load_task(passbench_task("b511") / "graphs" / "1")
    opts = EvalOptions(device="cuda", cache_root=cache_root, standby=True, timing_budget_s=0.3)
    try:
        first = evaluate_pass(task, EXAMPLES / "b511_pooler_dir", opts)
        assert STANDBY_POOL.wait_ready(180)
        second = evaluate_pass(task, TEST_PASSES / "no_match.py", opts)
        assert any(line.startswith("pre-started") for line in second.sandbox)
        assert first.subgraphs[0].status == "correct" and second.subgraphs[0].status == "compile"
        assert set(second.subgraphs[0].times) == {"eager", "inductor"}
        assert second.subgraphs[0].times["eager"].kernel_median_us > 0
    finally:
        STANDBY_POOL.close()


def test_the_compiles_happen_before_the_gpu_lease(cache_root: Path, tmp_path: Path) -> None:
    # On a one-GPU pool the candidate process compiles the candidate (and its held-out shapes) and
    # the baseline's clean process default Inductor before the referee asks for the GPU; the lease
    # covers first runs, checks and timing only.
    from passagent.tools.process.device_lease import read_leases

    locks = tmp_path / "locks"
    opts = EvalOptions(device_pool=["cuda:0"], lock_dir=locks, cache_root=cache_root)
    result = evaluate_pass(load_task(passbench_task("b511")), EXAMPLES / "b511_pooler_dir", opts)
    [record] = read_leases(locks)
    assert record["before_lease_s"].get("compile", 0.0) > 0, record["before_lease_s"]
    assert "candidate_compile" not in record["in_lease_s"] and "candidate_first_run" in record["in_lease_s"], record["in_lease_s"]
    for s in result.subgraphs:
        assert s.status == "correct" and s.matches >= 1, s.message
        assert set(s.before_lease_s) == {"inductor", "candidate"} and s.compiles_in_lease == 0, (s.before_lease_s, s.compiles_in_lease)


def test_work_left_on_the_gpu_after_done_is_seen(cache_root: Path) -> None:
    """A candidate process whose window code was rewritten to say done with work still queued on
    the GPU: the clean process's probe kernel waits for it (``deferred_device_work``)."""
    task = load_task(passbench_task("b511") / "graphs" / "1")
    result = evaluate_pass(task, TEST_PASSES / "exploits" / "defer_device_work.py",
                           EvalOptions(device="cuda", cache_root=cache_root, static_checks=False))
    s = result.subgraphs[0]
    assert (s.status, s.integrity_rule) == ("integrity", "deferred_device_work"), s.message


def test_a_pooled_check_runs_on_the_leased_gpu_after_its_process_is_ready(tmp_path: Path) -> None:
    from passagent.tools.inspection.check import check_pass_on_task
    from passagent.tools.process.device_lease import read_leases
    from passagent.tools.process.lease_gate import LeaseGate

    gate = LeaseGate(["cuda:0"], tmp_path / "locks", {"purpose": "check_pass"})
    task = load_task(Path(__file__).resolve().parent.parent / "bench" / "tasks" / "task_004")
    report = check_pass_on_task(task, TEST_PASSES / "passnet" / "multi_output_wrap_launcher.py", subgraphs=[0],
                                timeout_s=600, gate=gate)
    assert report.error is None and report.subgraphs[0].matches == 1, report
    assert all(o.problem is None and o.min_correct_t <= -5 for o in report.subgraphs[0].outputs)
    [lease] = read_leases(tmp_path / "locks")
    assert lease["device"] == "cuda:0" and lease["before_lease_s"]["check_start"] > 0 and lease["in_lease_s"]["check"] > 0
