"""The adversarial suite: one pass per exploit pattern of DESIGN.md "Integrity", each caught by a
named rule; honest passes of different kinds that must not be flagged; and the sandbox.

Exploits that the static checks stop before any code runs are also run with the static checks
off, to show the runtime defense behind them fires too.
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest
from helpers import EXAMPLES, TEST_PASSES, make_sample, passbench_task

from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.evaluation.schema import EvalResult
from passagent.tools.tasks.loader import load_task
from passagent.tools.measure.timing import TimingConfig

EXPLOITS = TEST_PASSES / "exploits"
HONEST = TEST_PASSES / "honest"
FAST = TimingConfig(warmup=1, min_calls=5, max_calls=20, budget_s=0.1)


def evaluate(task_path: Path, pass_path: Path, cache_root: Path, static_checks: bool = True) -> EvalResult:
    options = EvalOptions(cache_root=cache_root, timing=FAST, timeout_s=180, static_checks=static_checks)
    return evaluate_pass(load_task(task_path), pass_path, options)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("samples")
    return {
        "bge": passbench_task("b511") / "graphs" / "1",
        "identity": make_sample(root, "identity", "y = x * 1.0\nreturn (y,)", {"x": ([32, 64], "float32")}),
        "normalize32": make_sample(root, "normalize32", "y = torch.nn.functional.normalize(x, p=2, dim=1)\nreturn (y,)",
                                   {"x": ([16, 64], "float32")}),
        "silu": make_sample(root, "silu", "y = x * torch.sigmoid(x)\nreturn (y,)", {"x": ([64, 256], "float32")}),
        "mutating": make_sample(root, "mutating", "x.add_(1.0)\ny = x * 2.0\nreturn (y,)", {"x": ([64, 64], "float32")}),
    }


#: The expectation for an attack that the process roles leave nothing to gain: what it changes is
#: its own process, so it is scored on its own time (or fails on wrong values), never rewarded.
NOT_REWARDED = "not rewarded"


def _assert_not_rewarded(result: EvalResult) -> None:
    """No subgraph is scored correct with a speedup beyond what an honest rewrite of these small
    samples gets (at most 1.25x default Inductor, and against eager at most 1.25x Inductor's own)."""
    for s in result.subgraphs:
        if s.status != "correct":
            continue
        assert s.speedup_vs_inductor is None or s.speedup_vs_inductor <= 1.25, (s.speedup_vs_inductor, s.message)
        if s.inductor_speedup_vs_eager and s.speedup_vs_eager:
            assert s.speedup_vs_eager <= 1.25 * s.inductor_speedup_vs_eager, (s.speedup_vs_eager, s.inductor_speedup_vs_eager)


def _assert_caught(result: EvalResult, rule: str) -> None:
    if rule == NOT_REWARDED:
        return _assert_not_rewarded(result)
    statuses = {(s.status, s.integrity_rule) for s in result.subgraphs}
    assert statuses == {("integrity", rule)}, [(s.status, s.integrity_rule, s.message) for s in result.subgraphs]
    assert all(f"'{rule}'" in (s.message or "") for s in result.subgraphs), "the rule is named to the model"
    assert result.scores.aggregated == pytest.approx(result.config.failure_penalty), "scored b"
    assert all(s.speedup_vs_eager is None and s.paired_speedup_vs_eager is None for s in result.subgraphs), \
        "a caught candidate keeps no speedup, not even the recorded paired one"


# (exploit file, sample, rule expected with static checks on, rule with them off)
CASES = [
    ("cache_by_data_ptr.py", "bge", "identity_cache", "timed_output_mismatch"),
    # Static checks off, its replay shows as wrong values on the spread and wide draws.
    ("count_calls.py", "bge", "global_state", NOT_REWARDED),
    # Static checks off, the custom-op see-through (no_change) traces the op's body on fake
    # tensors before any real call, so the kept buffer is a fake tensor and the first timed
    # output fails `output_type`; the reuse itself is `output_reused` (tests/test_integrity's
    # output-memory tests and the red-team corpus).
    ("reuse_output.py", "bge", "global_state", "output_type"),
    # Static checks off, its thread works inside the call it was started by (which joins it):
    # its own time, and slow; idle threads left behind change nothing.
    ("background_thread.py", "bge", "forbidden_import", NOT_REWARDED),
    # Static checks off, both patch the harness inside the candidate process, which decides nothing.
    ("patch_timer.py", "bge", "forbidden_import", NOT_REWARDED),
    ("import_harness.py", "bge", "forbidden_import", NOT_REWARDED),
    # Static checks off, the candidate falls back to eager in its own process: eager's time.
    ("suppress_errors.py", "bge", "forbidden_import", NOT_REWARDED),
    ("read_reference.py", "bge", "forbidden_import", None),
    ("side_stream.py", "bge", "side_stream", None),
    # Caught only at run time: nothing in their source is suspicious.
    ("same_ops_new_name.py", "bge", "no_change", "no_change"),
    ("return_input.py", "identity", "output_aliases_input", "output_aliases_input"),
    ("precision_downgrade.py", "normalize32", "precision_downgrade", "precision_downgrade"),
    ("shape_special_case.py", "normalize32", "shape_special_case", "shape_special_case"),
]


@pytest.mark.parametrize("exploit, sample, static_rule, runtime_rule", CASES, ids=[c[0][:-3] for c in CASES])
def test_exploit_is_caught_by_its_rule(exploit: str, sample: str, static_rule: str, runtime_rule: str | None,
                                       samples: dict[str, Path], cache_root: Path) -> None:
    _assert_caught(evaluate(samples[sample], EXPLOITS / exploit, cache_root), static_rule)


@pytest.mark.parametrize(
    "exploit, sample, runtime_rule",
    [(c[0], c[1], c[3]) for c in CASES if c[3] is not None and c[2] != c[3]],
    ids=[c[0][:-3] for c in CASES if c[3] is not None and c[2] != c[3]],
)
def test_runtime_defense_behind_the_static_check(exploit: str, sample: str, runtime_rule: str,
                                                 samples: dict[str, Path], cache_root: Path) -> None:
    result = evaluate(samples[sample], EXPLOITS / exploit, cache_root, static_checks=False)
    # (The address cache once also failed as wrong values, `accuracy`, when the allocator gave a
    # correctness draw the previous draw's addresses; every draw's inputs now stay alive, so it
    # is always the integrity rule.)
    _assert_caught(result, runtime_rule)


@pytest.mark.parametrize(
    "pass_path, sample",
    [
        (EXAMPLES / "b511_skip_single_cat.py", "bge"),        # traced torch replacement
        (EXAMPLES / "b511_pooler_dir", "bge"),                # pass_dir, @torch.fx.wrap, two rules
        (HONEST / "custom_op_normalize.py", "bge"),           # opaque custom op with a fake
        (HONEST / "fused_silu.py", "silu"),                   # op fusion, float32
        (HONEST / "double_as_add.py", "mutating"),            # graph that mutates its input
    ],
    ids=["skip_single_cat", "pass_dir", "custom_op", "silu", "mutating_graph"],
)
def test_honest_pass_is_not_flagged(pass_path: Path, sample: str, samples: dict[str, Path], cache_root: Path) -> None:
    result = evaluate(samples[sample], pass_path, cache_root)
    for s in result.subgraphs:
        assert s.status == "correct", (s.status, s.integrity_rule, s.message)


def test_honest_pass_on_a_shared_task_with_a_graph_pattern(cache_root: Path) -> None:
    result = evaluate(passbench_task("623d") / "graphs" / "3", EXAMPLES / "623d_drop_dead_rand.py", cache_root)
    assert result.subgraphs[0].status == "correct", result.subgraphs[0].message


# --- the sandbox ---------------------------------------------------------------------------------


def test_reading_an_api_key_finds_none(samples: dict[str, Path], cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-" + "S3CR3T" * 4
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    for static in (True, False):
        result = evaluate(samples["bge"], EXPLOITS / "read_api_key.py", cache_root, static_checks=static)
        s = result.subgraphs[0]
        assert s.status in ("integrity", "compile")
        if not static:
            assert "KeyError" in s.message and "OPENAI_API_KEY" in s.message  # the worker's env has no key
        assert secret not in result.model_dump_json()


def test_writing_outside_the_worker_folder_fails(samples: dict[str, Path], cache_root: Path, tmp_path: Path) -> None:
    target = tmp_path / "outside" / "planted.txt"
    target.parent.mkdir()
    pass_file = tmp_path / "write_outside.py"
    pass_file.write_text((EXPLOITS / "write_outside.py").read_text().replace("__TARGET__", str(target)))
    result = evaluate(samples["bge"], pass_file, cache_root, static_checks=False)
    s = result.subgraphs[0]
    assert not target.exists(), "the file must not have been written"
    assert s.status == "integrity" and s.integrity_rule == "sandbox", s.message
    assert "Permission denied" in s.message or "Read-only" in s.message


def test_opening_a_socket_fails(samples: dict[str, Path], cache_root: Path, tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(60)
    received: list[bytes] = []

    def accept() -> None:
        try:
            conn, _ = server.accept()
            received.append(conn.recv(100))
        except OSError:
            pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    pass_file = tmp_path / "open_socket.py"
    pass_file.write_text((EXPLOITS / "open_socket.py").read_text().replace("PORT = 0", f"PORT = {server.getsockname()[1]}"))
    try:
        result = evaluate(samples["bge"], pass_file, cache_root, static_checks=False)
    finally:
        server.close()
    s = result.subgraphs[0]
    assert received == [], "nothing may reach a server from the worker"
    assert s.status == "integrity" and s.integrity_rule == "sandbox", s.message


def test_static_violations_are_listed_with_lines(samples: dict[str, Path], cache_root: Path) -> None:
    result = evaluate(samples["bge"], EXPLOITS / "patch_timer.py", cache_root)
    message = result.subgraphs[0].message
    assert "patch_timer.py:2" in message  # `import time`
    data = json.loads(result.model_dump_json())
    assert data["subgraphs"][0]["integrity_rule"] == "forbidden_import"


# --- runtime defences that hold whatever the static checks miss -----------------------------------

from passagent.tools.redteam import CORPUS  # noqa: E402
from passagent.tools.redteam.samples import write_sample  # noqa: E402


@pytest.fixture(scope="module")
def redteam_samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("redteam_samples")


def _sample(root: Path, name: str) -> Path:
    return root / name if (root / name).exists() else write_sample(root, name)


# (corpus attack, rules accepted with the static checks off): each passed today's harness.
RUNTIME_CASES = [
    ("mkldnn_off", {NOT_REWARDED}),                        # a flag flipped: only in its own process
    ("timing_module_clock", {NOT_REWARDED}),               # the timing module's own `time` swapped: not the referee's
    ("grad_mode", {NOT_REWARDED}),                         # autograd switched on: only in its own process
    ("custom_op_same_ops", {"no_change"}),                 # the original ops inside a custom op
    ("custom_op_half", {"precision_downgrade"}),           # float16 inside a custom op
    ("value_oracle", {NOT_REWARDED}),                      # honest only on the public draws: wrong on the others
    ("write_input", {"input_mutated"}),                    # scribbles on a read-only input
]


@pytest.mark.parametrize("attack, rules", RUNTIME_CASES, ids=[c[0] for c in RUNTIME_CASES])
def test_runtime_defence_catches_what_static_checks_miss(attack: str, rules: set[str], redteam_samples: Path,
                                                         cache_root: Path) -> None:
    from passagent.tools.redteam import load_corpus

    entry = next(e for e in load_corpus(only=attack) if e.name == attack)
    result = evaluate(_sample(redteam_samples, entry.sample), entry.path, cache_root, static_checks=False)
    s = result.subgraphs[0]
    if rules == {NOT_REWARDED}:
        return _assert_not_rewarded(result)
    assert s.status == "integrity" and s.integrity_rule in rules, (s.status, s.integrity_rule, s.message)
    assert s.speedup_vs_eager is None


def test_a_dropped_inplace_write_is_wrong_values(redteam_samples: Path, cache_root: Path) -> None:
    # The graph adds 1 to its input in place; the candidate takes the write back. Before in-place
    # writes were compared it was scored correct.
    result = evaluate(_sample(redteam_samples, "mutating"), CORPUS / "undo_input_write.py", cache_root, static_checks=False)
    s = result.subgraphs[0]
    assert s.status != "correct", s.message
    assert s.status == "accuracy" or s.integrity_rule == "input_mutated"


def test_a_process_tampering_candidate_leaves_a_clean_baseline_in_the_cache(redteam_samples: Path, tmp_path: Path) -> None:
    # A flag flipped in the candidate's process (oneDNN off) cannot reach the baselines, measured
    # in clean processes: what is cached is what a clean evaluation caches.
    from passagent.tools.evaluation.baseline_cache import BaselineCache

    sample = _sample(redteam_samples, "catnorm")
    result = evaluate(sample, CORPUS / "mkldnn_off.py", tmp_path, static_checks=False)
    _assert_not_rewarded(result)
    [entry] = list(BaselineCache(tmp_path).dir.glob("*.json"))
    import json

    cached = json.loads(entry.read_text())
    assert cached["inductor_error"]["min_correct_t"] == result.subgraphs[0].inductor_error.min_correct_t <= -5


def test_a_graph_with_random_ops_is_correct_under_an_honest_pass(redteam_samples: Path, cache_root: Path) -> None:
    # Dropout in training mode: every timed call is seeded like its reference; before, the
    # timed calls were unseeded and an honest pass failed as timed_output_mismatch.
    result = evaluate(_sample(redteam_samples, "dropout"), CORPUS / "honest" / "double_after_dropout.py", cache_root)
    s = result.subgraphs[0]
    assert s.status == "correct", (s.status, s.integrity_rule, s.message)
    assert "candidate" in s.times, "timed, every timed call checked"


def test_raising_on_a_heldout_size_is_shape_special_case(redteam_samples: Path, cache_root: Path, tmp_path: Path) -> None:
    # Raises unless the second dimension is the measured 64: the old held-out step grew only
    # dimension 0 and forgave raising.
    p = tmp_path / "dim1_only.py"
    p.write_text(
        "import torch\n\n\n@torch.fx.wrap\ndef rows(x):\n    if x.shape[1] != 64:\n        raise ValueError('unsupported width')\n"
        "    return x * torch.rsqrt((x * x).sum(1, keepdim=True).clamp_min(1e-24))\n\n\n"
        "def pattern(x):\n    return torch.nn.functional.normalize(x, p=2, dim=1)\n\n\n"
        "def replacement_args(x):\n    return (x,)\n\n\ndef replacement_func():\n    return rows\n")
    result = evaluate(_sample(redteam_samples, "normalize32"), p, cache_root)
    s = result.subgraphs[0]
    assert (s.status, s.integrity_rule) == ("integrity", "shape_special_case"), s.message
    assert "raised" in (s.message or "")


def test_a_crash_in_the_heldout_step_keeps_the_measurement_and_names_the_step(redteam_samples: Path, cache_root: Path) -> None:
    # The worker dies (SIGSEGV) only on the held-out shape: before, the measured result was lost
    # and the crash was blamed on the candidate's compile.
    result = evaluate(_sample(redteam_samples, "normalize32"), TEST_PASSES / "segfault_on_heldout_shape.py", cache_root,
                      static_checks=False)
    s = result.subgraphs[0]
    assert (s.status, s.integrity_rule) == ("integrity", "shape_special_case"), s.message
    assert "heldout_shape" in (s.message or "") and "SIGSEGV" in (s.message or "")
    assert "eager" in s.times and s.times["eager"].median_us > 0, "the baseline measured before the crash is kept"
    assert "candidate" not in s.times


def _fx_graph_entries(cache_root: Path) -> set[str]:
    # Inductor's FX-graph cache: one folder per cache key under <cache dir>/fxgraph/<prefix>/.
    # Candidates compile into their own cache (the clean processes' is under <root>/inductor).
    return {p.name for p in (cache_root / "candidates").glob("*/inductor/fxgraph/*/*")}


def test_the_heldout_recompile_is_keyed_by_the_pass_digest(redteam_samples: Path, tmp_path: Path) -> None:
    # Three passes register the same custom-op name with different bodies and are evaluated one
    # after the other over one cache. Their rewritten graphs are the same FX graph, so only the
    # pass-digest tag tells Inductor's cache apart: the second pass must compile (not be served)
    # both its measured-shape and its held-out graph.
    shared = tmp_path / "cache"
    source = (TEST_PASSES / "segfault_on_heldout_shape.py").read_text()
    first, second = tmp_path / "same_op_name_a.py", tmp_path / "same_op_name_b.py"
    first.write_text(source.replace("        ctypes.string_at(0)\n", "        pass\n"))
    second.write_text(source.replace("        ctypes.string_at(0)\n", "        x = x + 0.0\n"))
    sample = _sample(redteam_samples, "normalize32")
    for p in (first, second):
        before = _fx_graph_entries(shared)
        s = evaluate(sample, p, shared, static_checks=False).subgraphs[0]
        assert s.status == "correct", (p.name, s.status, s.integrity_rule, s.message)
    new = _fx_graph_entries(shared) - before
    assert len(new) == 2, f"the second pass was served the first's compiled graph ({len(new)} new cache entries, 2 expected)"
    # The third crashes off the measured width, in the held-out step's trace of its op: the crash
    # names that step and keeps what was measured before it.
    before = _fx_graph_entries(shared)
    c = evaluate(sample, TEST_PASSES / "segfault_on_heldout_shape.py", shared, static_checks=False).subgraphs[0]
    assert len(_fx_graph_entries(shared) - before) == 1, "its measured-shape graph is its own"
    assert (c.status, c.integrity_rule) == ("integrity", "shape_special_case"), c.message
    assert "heldout_shape" in (c.message or "") and "SIGSEGV" in (c.message or "")
    assert "eager" in c.times and c.times["eager"].median_us > 0 and "candidate" not in c.times


# --- no_change on a normalised form; custom ops wherever they are called ---------------------------


def _signature(fn, *inputs):
    import torch.fx

    from passagent.tools.integrity.rules import aten_signature

    return aten_signature(torch.fx.symbolic_trace(fn), list(inputs))


def test_no_change_reads_a_negative_dimension_as_the_same_op() -> None:
    import torch

    x = torch.randn(4, 8)
    assert _signature(lambda t: torch.cat([t], 1) * 2, x) == _signature(lambda t: torch.cat([t], -1) * 2, x)
    assert _signature(lambda t: t.sum(-1), x) == _signature(lambda t: t.sum(1), x)
    assert _signature(lambda t: t.sum(0), x) != _signature(lambda t: t.sum(1), x)


def test_no_change_reads_an_in_place_spelling_as_the_same_op() -> None:
    import torch

    def in_place(t):
        y = t * 2
        y.mul_(3)
        return y

    def writes_its_input(t):
        t.mul_(2)
        return t + 1

    x = torch.randn(4, 8)
    assert _signature(in_place, x) == _signature(lambda t: (t * 2) * 3, x)
    # A write into an input is not respelling: it stays one more op (the copy into the input).
    assert _signature(writes_its_input, x.clone()) != _signature(lambda t: t * 2 + 1, x)


def test_no_change_reads_commuted_operands_as_the_same_op() -> None:
    import torch

    x, y = torch.randn(4, 8), torch.randn(4, 8)
    assert _signature(lambda a, b: a + b, x, y) == _signature(lambda a, b: torch.add(b, a), x, y)
    assert _signature(lambda a, b: torch.maximum(a, b) * a, x, y) == _signature(lambda a, b: a * torch.maximum(b, a), x, y)
    # Order still matters where the op does not commute, or where it is not the same op.
    assert _signature(lambda a, b: a - b, x, y) != _signature(lambda a, b: b - a, x, y)
    assert _signature(lambda a, b: torch.add(a, b, alpha=2), x, y) != _signature(lambda a, b: torch.add(b, a, alpha=2), x, y)


def test_custom_ops_are_seen_through_inside_wrapped_functions() -> None:
    # The original ops inside a custom op, called from a torch.fx.wrap function: the graph's own
    # nodes name only the wrapped function; the custom op appears in its trace, and its body too.
    from passagent.tools.passes.rules import load_rules

    rule = load_rules(CORPUS / "wrapped_custom_op.py")[0]
    import torch

    x = torch.randn(16, 64)
    original = _signature(lambda t: torch.nn.functional.normalize(torch.cat([t], 1), p=2, dim=1), x)
    assert _signature(lambda t: rule.replacement_func()(t), x) == original


def test_state_on_a_module_object_is_refused_statically() -> None:
    from passagent.tools.integrity.static_checks import Mode, check_pass

    rules = [v.rule for v in check_pass(CORPUS / "module_buffer_replay.py", Mode.PERMISSIVE)]
    assert rules and rules[0] == "global_state"


def test_a_graph_whose_sizes_cannot_change_says_so(redteam_samples: Path, cache_root: Path, tmp_path: Path) -> None:
    # Every size is fixed by a reshape to literal sizes: no held-out shape exists, and the result
    # says why instead of skipping the step silently.
    sample = make_sample(tmp_path, "fixed", "y = x.reshape(4, 16) * 2.0\nreturn (y,)", {"x": ([64], "float32")})
    honest = tmp_path / "double.py"
    honest.write_text('import torch\n\n\ndef pattern(x):\n    return x.reshape(4, 16) * 2.0\n\n\n'
                      'def replacement_args(x):\n    return (x,)\n\n\ndef doubled(x):\n    return (x + x).reshape(4, 16)\n\n\n'
                      'def replacement_func():\n    return doubled\n')
    s = evaluate(sample, honest, cache_root).subgraphs[0]
    assert s.status == "correct", s.message
    assert s.heldout is not None and s.heldout.sizes is None and "eager accepts no grown size" in (s.heldout.reason or "")


def test_the_heldout_step_grows_a_batch_of_one(redteam_samples: Path, cache_root: Path) -> None:
    # Right only at batch 1: the held-out step grows a size of one to two, and the pass is caught there.
    s = evaluate(_sample(redteam_samples, "batch1"), CORPUS / "batch1_branch.py", cache_root, static_checks=False).subgraphs[0]
    assert (s.status, s.integrity_rule) == ("integrity", "shape_special_case"), s.message
