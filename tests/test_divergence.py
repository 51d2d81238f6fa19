"""The divergence search: the first graph node whose value leaves a tolerance level against eager,
for default Inductor (prefixes compiled, bisection), for a rewritten graph run eagerly (exact),
and through ``passagent check --divergence`` and ``show_baseline``'s inspection."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from helpers import make_sample

from passagent.tools.inspection.divergence import (
    ORIGIN,
    bisection_compiles,
    compiled_divergence,
    default_level,
    eager_divergence,
    node_values,
    prefix_module,
    tag_origins,
)
from passagent.tools.tasks.inputs import clone_inputs


def _chain(x: torch.Tensor) -> torch.Tensor:
    a = x * 1.5
    b = a * a
    c = b * x
    d = c + a
    e = d * d
    return e


def _traced(fn) -> torch.fx.GraphModule:  # type: ignore[no-untyped-def]
    gm = torch.fx.symbolic_trace(fn)
    tag_origins(gm)
    return gm


def test_default_level_is_one_below_the_worst_outputs_level() -> None:
    assert default_level([-8, -4]) == -5
    assert default_level([-6, None]) == 4  # an output correct at no level: the highest level
    assert default_level([-10, -10]) is None  # correct everywhere: nothing to search


def test_a_prefix_computes_the_node_it_ends_at() -> None:
    gm = _traced(_chain)
    x = torch.randn(8, 16)
    values = node_values(gm, [x])
    assert set(values) == {"mul", "mul_1", "mul_2", "add", "mul_3"}
    c = next(n for n in gm.graph.nodes if n.name == "mul_2")
    prefix = prefix_module(gm, c)
    assert [n.name for n in prefix.graph.nodes if n.op == "call_function"] == ["mul", "mul_1", "mul_2"]
    assert torch.equal(prefix(x)[0], values["mul_2"])


def test_bisection_finds_the_first_node_an_error_starts_at_within_its_compile_budget() -> None:
    """A stand-in compiler that is exact up to node k and wrong from there on: the search names
    node k and the node before it, in at most 1 + ceil(log2(n)) compiles."""
    def long_chain(x):  # type: ignore[no-untyped-def]
        for _ in range(20):
            x = x * 1.01
        return x

    gm = _traced(long_chain)
    x = torch.randn(4, 4)
    reference = node_values(gm, [x])
    names = [n.name for n in gm.graph.nodes if n.op == "call_function"]
    wrong_from = names.index("mul_12")

    def compile_prefix(prefix: torch.fx.GraphModule, _args: list) -> object:  # type: ignore[type-arg]
        last = [n for n in prefix.graph.nodes if n.op == "call_function"][-1]
        broken = names.index(last.meta[ORIGIN]) >= wrong_from
        return lambda *a: (prefix(*a)[0] + (1.0 if broken else 0.0),)

    d = compiled_divergence(gm, [x], reference, -5, clone_inputs, compile_prefix=compile_prefix)
    assert (d.node, d.within, d.compared) == ("mul_12", "mul_11", 20)
    assert d.min_correct_t is not None and d.min_correct_t > -5 and d.max_abs == pytest.approx(1.0)
    assert 1 <= d.compiles <= bisection_compiles(20) == 6


def test_inductor_in_bfloat16_diverges_where_it_fuses_away_eagers_rounding() -> None:
    """Real Inductor: each bf16 op alone rounds as eager does; the fused chain skips an
    intermediate rounding, and the search names the node where the skipped value is used."""
    gm = _traced(_chain)
    x = torch.randn(64, 128, generator=torch.Generator().manual_seed(0)).to(torch.bfloat16)
    reference = node_values(gm, [x])
    d = compiled_divergence(gm, [x], reference, -5, clone_inputs)
    assert d.node is not None and d.within is not None, d
    assert d.dtype == "bfloat16" and d.shape == [64, 128]
    assert d.min_correct_t is None or d.min_correct_t > -5
    assert d.compiles <= bisection_compiles(d.compared)
    # Its predecessor, compiled as a prefix, is within the level: the search did not just stop.
    before = next(n for n in gm.graph.nodes if n.name == d.within)
    got = torch._inductor.compile_fx.compile_fx(prefix_module(gm, before), [x])(x)[0]
    from passagent.tools.measure.correctness import compare_outputs

    assert compare_outputs([got], [reference[d.within]]).min_correct_t <= -5


def test_the_eager_search_compares_only_nodes_the_rewrite_left_in_place() -> None:
    """A rewritten graph whose replacement is off by a little: the replacement's own nodes are
    not compared; the first original node downstream of it is named, exactly."""
    gm = _traced(_chain)
    x = torch.randn(8, 16)
    reference = node_values(gm, [x])
    rewritten = _traced(_chain)
    b = next(n for n in rewritten.graph.nodes if n.name == "mul_1")
    with rewritten.graph.inserting_after(b):
        off = rewritten.graph.call_function(torch.add, (b, 1e-3))
    b.replace_all_uses_with(off, delete_user_cb=lambda u: u is not off)
    del b.meta[ORIGIN]  # it now stands for the replacement: no eager counterpart
    rewritten.recompile()
    d = eager_divergence(rewritten, [x], reference, -5, clone_inputs)
    assert (d.computation, d.node, d.within, d.compiles) == ("candidate_eager", "mul_2", "mul", 0)
    assert eager_divergence(_traced(_chain), [x], reference, -10, clone_inputs).node is None


@pytest.fixture(scope="module")
def chain_task(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("divergence")
    task = make_sample(root, "chain", "a = x * 1.5\nb = a * a\nc = b * x\nd = c + a\ne = d * d\nreturn (e,)",
                       {"x": ([64, 128], "bfloat16")})
    pass_file = root / "scale.py"
    pass_file.write_text("import torch\n\n\ndef pattern(x):\n    return x * 1.5\n\n\ndef replacement_args(x):\n"
                         "    return (x,)\n\n\ndef replacement_func():\n    def scale(x):\n        return x + x * 0.5\n"
                         "    return scale\n")
    return task, pass_file


def test_check_reports_where_inductor_and_the_candidate_diverge(chain_task: tuple[Path, Path]) -> None:
    from passagent.agent.run.condense import describe_check
    from passagent.tools.inspection.check import check_pass_on_task
    from passagent.tools.tasks.loader import load_task

    task, pass_file = chain_task
    report = check_pass_on_task(load_task(task), pass_file, inductor_subgraph=0, divergence_subgraph=0)
    assert report.error is None and report.divergence_subgraph == 0
    sg = report.subgraphs[0]
    assert [d.computation for d in sg.divergence] == ["inductor", "candidate"]
    for d in sg.divergence:
        assert d.level == default_level([o.min_correct_t for o in sg.outputs]) and d.node is not None and d.compiles >= 1
    text = describe_check(report, for_user=True)
    assert f"divergence at t={sg.divergence[0].level}, default Inductor: first at node {sg.divergence[0].node}" in text
    # Without Inductor the candidate's search is the exact eager one.
    eager = check_pass_on_task(load_task(task), pass_file, divergence_subgraph=0, divergence_level=-10, eager=True)
    assert [d.computation for d in eager.subgraphs[0].divergence] == ["inductor", "candidate_eager"]
    assert eager.subgraphs[0].divergence[1].compiles == 0


def test_show_baseline_says_where_inductor_leaves_the_headline_level(chain_task: tuple[Path, Path]) -> None:
    from passagent.agent.run.condense import describe_baseline
    from passagent.tools.inspection.ir import inspect_subgraph

    ir = inspect_subgraph(str(chain_task[0]), 0, profile=False)
    assert ir["inductor_error"]["min_correct_t"] > -5
    d = ir["inductor_divergence"]
    assert d["computation"] == "inductor" and d["node"] is not None and d["level"] >= -5
    assert f"default Inductor: first at node {d['node']}" in describe_baseline(ir, None)


def test_the_check_gives_the_evaluations_verdict_where_the_eager_run_does_not(chain_task: tuple[Path, Path],
                                                                                         tmp_path: Path) -> None:
    """One pass, three verdicts: run eagerly (``--eager``) the rewritten bf16 graph is exact
    (t=-10); compiled (the check's default), Inductor fuses away an intermediate rounding and it is
    correct from t=-4 only; the evaluation agrees with the default check, and the eager check's
    text says which to trust."""
    from passagent.agent.run.condense import describe_check
    from passagent.tools.inspection.check import check_pass_on_task
    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks.loader import load_task
    from passagent.tools.measure.timing import TimingConfig

    task, pass_file = chain_task
    eager = check_pass_on_task(load_task(task), pass_file, eager=True)
    compiled = check_pass_on_task(load_task(task), pass_file)
    assert eager.subgraphs[0].outputs[0].min_correct_t == -10
    level = compiled.subgraphs[0].outputs[0].min_correct_t
    assert level is not None and level > -5
    assert "the check without --eager gives the evaluation's verdict on this draw" in describe_check(eager, for_user=True)
    assert "evaluation's verdict on this draw" not in describe_check(compiled, for_user=True)
    result = evaluate_pass(load_task(task), pass_file, EvalOptions(
        cache_root=tmp_path / "cache", timing=TimingConfig(warmup=1, min_calls=3, max_calls=10, budget_s=0.05)))
    sg = result.subgraphs[0]
    assert sg.status == "accuracy" and sg.candidate_error is not None, sg
    # The same verdict (fails t=-5); the evaluation's level is its worst over more draws.
    assert sg.candidate_error.min_correct_t is not None and sg.candidate_error.min_correct_t >= level


VELTKAMP_PASS = '''import torch


def pattern(x):
    a = x * 1.5
    b = a * a
    c = b * x
    d = c + a
    e = d * d
    return e


def replacement_args(x):
    return (x,)


def replacement_func():
    def r(t):
        p = t * 65537.0  # Veltkamp's split: t rounded to 8 significant bits, bfloat16's precision
        return p - (p - t)

    def rounded(x):
        xf = x.float()
        a = r(xf * 1.5)
        b = r(a * a)
        c = r(b * xf)
        d = r(c + a)
        return (d * d).to(torch.bfloat16)
    return rounded
'''


def test_eagers_rounding_kept_in_compiled_code_as_the_prompt_advises(chain_task: tuple[Path, Path], tmp_path: Path) -> None:
    """The system prompt's advice holds: an explicit ``.to(bfloat16).float()`` round trip is dropped
    inside Inductor's fused kernel, while Veltkamp's split rounds each intermediate as eager does:
    the compiled candidate is correct from t=-10 where default Inductor is correct from t=-4."""
    from passagent.tools.inspection.check import AUTO_SUBGRAPH, check_pass_on_task
    from passagent.tools.tasks.loader import load_task

    task, _ = chain_task
    veltkamp = tmp_path / "veltkamp.py"
    veltkamp.write_text(VELTKAMP_PASS)
    cast = tmp_path / "cast.py"
    cast.write_text(VELTKAMP_PASS.replace("        p = t * 65537.0  # Veltkamp's split: t rounded to 8 significant bits, bfloat16's precision\n"
                                          "        return p - (p - t)", "        return t.to(torch.bfloat16).float()"))
    kept = check_pass_on_task(load_task(task), veltkamp, divergence_subgraph=AUTO_SUBGRAPH)
    dropped = check_pass_on_task(load_task(task), cast)
    assert kept.subgraphs[0].outputs[0].min_correct_t == -10 and not kept.subgraphs[0].no_change
    assert dropped.subgraphs[0].outputs[0].min_correct_t > -5
    # Nothing fails t=-5, so the automatic search falls back to the first subgraph: Inductor's own
    # divergence is still named, the candidate's is not located (it is within the level).
    assert kept.divergence_subgraph == 0
    inductor, mine = kept.subgraphs[0].divergence
    assert inductor.node is not None and mine.node is None
