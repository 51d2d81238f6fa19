"""The built-in policy's forms for the tasks nothing else applied to on the CPU: a bias-free linear
(``linear_no_bias``: a batched GEMM, float16 in float32) and the last resorts (another lowering of
a lone op: ``neg_as_mul``, ``gelu_written_out``, ``embedding_as_index``).

On the real tasks' FX graphs (captured as ``inspect_ir`` records them, without Inductor): each form
is proposed, one rule matches every subgraph, the policy evaluates it (never silent) and says why it
lost; a last resort is not proposed where another form applies. In eager: the exact lowerings give
the original ops' values bit for bit, the others are within t = -5 (float32) or as close to the
float64 result as the original ops (half precision). Through the real harness (slow): correct where
default Inductor is, the rule matched, no defence fired.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import torch
from test_builtin_cpu_forms import (_history, _module, assert_correct_through_the_harness, assert_same_values,
                                    capture_task_irs)
from test_builtin_policy import eval_text

from passagent.agent.builtin.emit import find_matches
from passagent.agent.builtin.fx_reader import read_graphs
from passagent.agent.builtin.policy import BuiltinPolicy, _Exchange, candidate_drafts
from passagent.agent.builtin.recipes import CATALOGUE, RuleDraft
from passagent.tools.tasks.builtin import builtin_tasks_dir
from passagent.tools.measure.correctness import tolerance
from passagent.tools.tasks.inputs import synthesize_inputs
from passagent.tools.tasks.loader import load_task

#: task -> (the recipe that gives it a candidate, matches per subgraph, exact, what the graphs are)
TASKS = {
    "task_109": ("neg_as_mul", 1, True, "a lone negation"),
    "task_001": ("neg_as_mul", 1, True, "rotary embedding: slices, a negation, stack, repeat_interleave"),
    "task_100": ("gelu_written_out", 1, False, "a lone exact GELU"),
    "task_099": ("embedding_as_index", 1, True, "a lone embedding lookup, tables of 2 to 32128 rows"),
    "task_070": ("linear_no_bias", 2, False, "llama MLP down projection: linear -> mul -> linear, no biases"),
}
LAST_RESORT = {r.name for r in CATALOGUE if r.last_resort}
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "int64": torch.int64}


@pytest.fixture(scope="module")
def task_irs() -> dict[str, dict[int, dict[str, Any]]]:
    return capture_task_irs(TASKS)


def _draft(irs: dict[int, dict[str, Any]], recipe: str) -> RuleDraft:
    drafts, withheld = candidate_drafts(irs, "cpu")
    assert [d.recipe for d in drafts] == [recipe], [d.recipe for d in drafts]  # the task's one candidate
    assert not withheld
    return drafts[0]


@pytest.mark.parametrize("task_id", list(TASKS))
def test_one_rule_matches_every_subgraph(task_irs: dict, task_id: str) -> None:
    recipe, per_subgraph, _exact, _what = TASKS[task_id]
    irs = task_irs[task_id]
    d = _draft(irs, recipe)
    assert d.family == "library form"
    for i, ir in irs.items():
        assert sum(len(find_matches(g, d.pattern)) for g in read_graphs(ir)) == per_subgraph, (task_id, i)


@pytest.mark.parametrize("task_id", list(TASKS))
def test_the_policy_evaluates_it_and_says_why_it_lost(task_irs: dict, task_id: str) -> None:
    recipe = TASKS[task_id][0]
    irs = task_irs[task_id]
    history = _history(irs)
    policy = BuiltinPolicy()
    text, calls = policy._decide(history)
    assert [n for n, _a in calls] == ["write_pass", "evaluate_pass"], (text, calls)
    rule = calls[0][1]["rule"]
    assert rule == _draft(irs, recipe).rule_name and text.startswith("Candidate 1:")
    history += [_Exchange("write_pass", {"rule": rule}, "ok"),
                _Exchange("evaluate_pass", {}, eval_text(0.4, 0.98, ["correct"] * len(irs)))]
    text, calls = policy._decide(history)
    assert [n for n, _a in calls] == ["delete_rule", "finish"], calls
    summary = calls[-1][1]["summary"]
    assert f"`{rule}` [library form]: does not beat default Inductor (AS / AS(Inductor) 0.980" in summary
    assert "library form: 1 tried, 0 kept" in summary and "nothing was evaluated" not in summary


def _values(task_id: str, index: int, ir: dict[str, Any], d: RuleDraft, seed: int) -> list[Any]:
    """The pattern's arguments: the harness's input draw ``seed`` where a parameter binds to a
    graph input, else a standard-normal tensor of the bound node's shape and dtype."""
    sg = load_task(str(builtin_tasks_dir() / task_id)).subgraphs[index]
    values = synthesize_inputs(sg, seed, device=torch.device("cpu"))
    [g] = read_graphs(ir)
    placeholders = [n.name for n in g.nodes.values() if n.op == "placeholder"]
    m = find_matches(g, d.pattern)[0]
    gen = torch.Generator().manual_seed(seed)
    out = []
    for p in d.pattern.params:
        node = g.node(m.bindings[p])
        if node.name in placeholders:
            out.append(values[placeholders.index(node.name)])
        else:
            out.append(torch.randn(node.shape, generator=gen).to(DTYPES[node.dtype]))
    return out


@pytest.mark.parametrize("task_id", list(TASKS))
def test_the_replacement_gives_the_original_values(task_irs: dict, task_id: str) -> None:
    recipe, _n, exact, _what = TASKS[task_id]
    irs = task_irs[task_id]
    d = _draft(irs, recipe)
    ns = _module(d)
    dtypes = {assert_same_values(ns, _values(task_id, i, ir, d, seed), (task_id, i), exact=exact, ulp_floor=True)
              for i, ir in irs.items() for seed in range(2)}
    assert {torch.float32, torch.float16, torch.bfloat16} <= dtypes  # every task mixes the three


def test_neg_and_gelu_on_special_values(task_irs: dict) -> None:
    special = torch.tensor([-math.inf, -2.5, -0.0, 0.0, 1e-40, 3.0, math.inf, math.nan])
    neg = _module(_draft(task_irs["task_109"], "neg_as_mul"))["replacement_func"]()
    gelu = _module(_draft(task_irs["task_100"], "gelu_written_out"))["replacement_func"]()
    for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
        x = special.to(dtype)
        got, want = neg(x), -x
        assert torch.equal(got.isnan(), want.isnan())  # a NaN stays NaN (its sign bit is not compared)
        assert torch.equal(got[:-1], want[:-1]) and torch.equal(got[:-1].signbit(), want[:-1].signbit())  # -0.0
        # Finite values as F.gelu; NaN stays NaN; +inf gives +inf (the formula's limit, as Inductor's
        # own lowering computes it; ATen's CPU kernel returns NaN there).
        got, want = gelu(x), torch.nn.functional.gelu(x)
        atol, rtol = tolerance(dtype, -5)
        assert torch.allclose(got[1:6].double(), want[1:6].double(), atol=atol, rtol=rtol), dtype
        assert got[7].isnan() and got[6] == math.inf and torch.equal(got[2:4], torch.zeros(2, dtype=dtype))
    ints = torch.tensor([-3, 0, 7, torch.iinfo(torch.int64).max])
    assert torch.equal(neg(ints), -ints) and neg(ints).dtype == torch.int64


@pytest.mark.parametrize(("code", "recipes"), [
    # A negation beside a LayerNorm: the LayerNorm's form applies, so the last resort is not proposed.
    ("t = -l_x_\n            out = torch.nn.functional.layer_norm(t, (8,), None, None, 1e-05)", ["layer_norm_two_pass"]),
    ("out = -l_x_", ["neg_as_mul"]),
    # The tanh GELU is another function; an embedding with max_norm rewrites the table in place.
    ("out = torch.nn.functional.gelu(l_x_, approximate = 'tanh')", []),
    ("out = torch.nn.functional.gelu(l_x_)", ["gelu_written_out"]),
    ("out = torch.nn.functional.embedding(l_i_, l_x_, None, 1.0, 2.0, False, False)", []),
    ("out = torch.nn.functional.embedding(l_i_, l_x_, None, None, 2.0, False, False)", ["embedding_as_index"]),
    # A linear with a bias has its own form; without one, the batched GEMM.
    ("out = torch._C._nn.linear(l_x_, l_w_, None)", ["linear_no_bias"]),
])
def test_what_each_applies_to(code: str, recipes: list[str]) -> None:
    from test_recipes import fake_ir

    src = f"""
        def forward(self, L_x_ : torch.Tensor, L_i_ : torch.Tensor, L_w_ : torch.Tensor):
            l_x_ = L_x_
            l_i_ = L_i_
            l_w_ = L_w_
            {code}
            return (out,)
    """
    meta = {"l_x_": ([4, 8], "float32"), "l_i_": ([3], "int64"), "l_w_": ([6, 8], "float32"), "t": ([4, 8], "float32"),
            "out": ([4, 8], "float32")}
    drafts, _withheld = candidate_drafts({0: fake_ir(src, meta)}, "cpu")
    assert [d.recipe for d in drafts] == recipes


#: task -> the subgraph evaluated through the harness: the float16 one, whose GEMM runs in float32
#: (every form compiles and is correct on a float32 sample in tests/test_recipes.py).
HARNESS_SUBGRAPH = {"task_070": 2}


@pytest.mark.slow
@pytest.mark.parametrize("task_id", list(HARNESS_SUBGRAPH))
def test_correct_through_the_harness(task_irs: dict, task_id: str, tmp_path: Path) -> None:
    d = _draft(task_irs[task_id], TASKS[task_id][0])
    assert_correct_through_the_harness(task_id, HARNESS_SUBGRAPH[task_id], d, tmp_path, matches=TASKS[task_id][1])
