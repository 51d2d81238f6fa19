"""Passes on a user's own model: composition (order, overlap, topological order), the public
backend, the Inductor-native export (cache keyed on its source, composition, no config leak),
match-only coverage, and ``passagent apply`` on a whole GraphNet model graph."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
import torch.fx
from helpers import SHARED

from passagent.tools.passes.compose import composed_digest, composed_pass_dir, load_passes, rule_names
from passagent.tools.errors import PassLoadError
from passagent.tools.passes.rewrite import apply_rules

REPO = Path(__file__).resolve().parent.parent
GRAPHNET = SHARED / "data" / "graphnet"
BIGBIRD = GRAPHNET / "hf__hf-tiny-model-private_tiny-random-BigBirdForSequenceClassification"

# Two passes whose matches overlap: A takes relu(x) + 1, B takes relu(x) alone. Each rewrites
# to an op the other never produces, so the rewritten graph shows which one won.
PASS_A = '''
import torch

def pattern(x):
    return torch.relu(x) + 1

def replacement_args(x):
    return (x,)

def shifted_clamp(x):
    return torch.clamp_min(x, 0.0) + 1

def replacement_func():
    return shifted_clamp
'''
PASS_B = '''
import torch

def pattern(x):
    return torch.relu(x)

def replacement_args(x):
    return (x,)

def clamp_relu(x):
    return torch.clamp(x, min=0.0)

def replacement_func():
    return clamp_relu
'''
# C consumes what B writes (clamp), so it only matches after B: a chained composition.
PASS_C = '''
import torch

def pattern(x):
    return torch.clamp(x, min=0.0) * 2

def replacement_args(x):
    return (x,)

def doubled(x):
    return torch.clamp(x, min=0.0) + torch.clamp(x, min=0.0)

def replacement_func():
    return doubled
'''


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    return path


def model(x: torch.Tensor) -> torch.Tensor:
    y = torch.relu(x) + 1
    z = torch.relu(x * 3) * 2
    return y * z


def _ops(gm: torch.fx.GraphModule) -> list[str]:
    return [getattr(n.target, "__name__", str(n.target)) for n in gm.graph.nodes if n.op == "call_function"]


def _assert_topological(gm: torch.fx.GraphModule) -> None:
    gm.graph.lint()
    seen: set[torch.fx.Node] = set()
    for n in gm.graph.nodes:
        assert all(i in seen for i in n.all_input_nodes), f"{n.name} uses a value defined after it"
        seen.add(n)


def test_order_decides_an_overlap(tmp_path: Path) -> None:
    a, b = _write(tmp_path, "a", PASS_A), _write(tmp_path, "b", PASS_B)
    x = torch.randn(8, 5)

    gm = torch.fx.symbolic_trace(model)
    apps = apply_rules(gm, load_passes([a, b]))
    # A first: it takes relu(x)+1; B then finds only the second relu (the first is gone).
    assert [(r.rule, r.matches) for r in apps] == [("a:a", 1), ("b:b", 1)]
    assert _ops(gm).count("clamp_min") == 1 and _ops(gm).count("clamp") == 1
    torch.testing.assert_close(gm(x), model(x))
    _assert_topological(gm)

    gm = torch.fx.symbolic_trace(model)
    apps = apply_rules(gm, load_passes([b, a]))
    # B first: both relus become clamp, so A's pattern (relu + 1) has nothing left to match.
    assert [(r.rule, r.matches) for r in apps] == [("b:b", 2), ("a:a", 0)]
    assert "clamp_min" not in _ops(gm) and _ops(gm).count("clamp") == 2
    assert apps[1].diagnostic and "earlier rule(s) b:b rewrote that fragment first" in apps[1].diagnostic
    torch.testing.assert_close(gm(x), model(x))
    _assert_topological(gm)


def test_chained_passes_keep_a_valid_topological_order(tmp_path: Path) -> None:
    b, c = _write(tmp_path, "b", PASS_B), _write(tmp_path, "c", PASS_C)
    gm = torch.fx.symbolic_trace(model)
    apps = apply_rules(gm, load_passes([b, c]))
    assert [(r.rule, r.matches) for r in apps] == [("b:b", 2), ("c:c", 1)]  # C matches only what B wrote
    _assert_topological(gm)
    x = torch.randn(4, 7)
    torch.testing.assert_close(gm(x), model(x))
    gm = torch.fx.symbolic_trace(model)
    assert [r.matches for r in apply_rules(gm, load_passes([c, b]))] == [0, 2]  # the other order: C first, no clamp yet


def test_overlapping_matches_of_one_rule_are_replaced_once(tmp_path: Path) -> None:
    double_relu = _write(tmp_path, "rr", '''
        import torch

        def pattern(x):
            return torch.relu(torch.relu(x))

        def replacement_args(x):
            return (x,)

        def once(x):
            return torch.relu(x)

        def replacement_func():
            return once
        ''')

    def chain(x: torch.Tensor) -> torch.Tensor:
        return torch.relu(torch.relu(torch.relu(x)))  # two overlapping matches of relu(relu(x))

    gm = torch.fx.symbolic_trace(chain)
    assert [r.matches for r in apply_rules(gm, load_passes(double_relu))] == [1]
    assert _ops(gm).count("relu") == 2
    _assert_topological(gm)
    x = torch.randn(6)
    torch.testing.assert_close(gm(x), chain(x))


def test_composed_pass_dir_keeps_order_and_separates_equal_rule_names(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    a = _write(tmp_path / "one", "rule", PASS_A)
    b = _write(tmp_path / "two", "rule", PASS_B)
    out = composed_pass_dir([a, b], tmp_path / "composed")
    order = json.loads((out / "sorted_output_pass_rule_names.json").read_text())
    assert order == ["p0_rule__rule", "p1_rule__rule"]
    assert (out / "p0_rule__rule.py").read_text() == a.read_text()
    assert rule_names([a, b]) == ["rule#0:rule", "rule#1:rule"]  # equal names stay apart
    assert composed_digest([a, b]) != composed_digest([b, a])  # the order is part of the identity
    assert composed_pass_dir([a], tmp_path / "unused") == a  # one pass is used as it is
    with pytest.raises(PassLoadError):
        composed_pass_dir([], tmp_path / "none")


def test_public_backend_applies_passes_in_order(tmp_path: Path) -> None:
    import passagent

    a, b = _write(tmp_path, "a", PASS_A), _write(tmp_path, "b", PASS_B)
    be = passagent.backend(str(a), str(b), inductor=False)
    compiled = torch.compile(model, backend=be)
    x = torch.randn(3, 4)
    torch.testing.assert_close(compiled(x), model(x))
    assert be.matches_by_rule() == {"a:a": 1, "b:b": 1}
    assert all(sites for sites in be.sites_by_rule().values())
    torch._dynamo.reset()
    torch.testing.assert_close(passagent.compile(model, passes=[a, b])(x), model(x))  # the same through Inductor
    with pytest.raises(TypeError, match="backend"):
        passagent.compile(model, passes=[a], backend="inductor")
    with pytest.raises(PassLoadError):
        passagent.backend(str(tmp_path / "missing.py"))


# --- the Inductor-native export -----------------------------------------------------------

_CACHE_SCRIPT = '''
import importlib, json, sys, torch
from torch._dynamo.utils import counters
sys.path.insert(0, sys.argv[1])
from passagent.tools.passes.inductor_export import inductor_options

def f(x):
    return torch.relu(x) * 3

def run():
    importlib.invalidate_caches()
    for name in [m for m in sys.modules if m == "exported" or m.startswith("exported.")]:
        del sys.modules[name]
    from exported import make_pass
    p = make_pass()
    torch._dynamo.reset()
    counters.clear()
    out = torch.compile(f, options=inductor_options(p))(torch.tensor([-1.0, 2.0]))
    return {"out": out.tolist(), "uuid": p.uuid(), "matches": p.matches_by_rule(),
            "hit": counters["inductor"]["fxgraph_cache_hit"] + counters["aot_autograd"]["autograd_cache_hit"]}

first = run()
second = run()   # same source: served from the cache
rule = sys.argv[2]
text = open(rule).read()
open(rule, "w").write(text.replace("torch.abs(x)", "torch.abs(x) + 10"))
third = run()    # edited rule: a new uuid, a miss, the new code runs
print(json.dumps([first, second, third]))
'''


def test_exported_pass_keys_inductor_cache_on_its_source(tmp_path: Path) -> None:
    from passagent.tools.passes.inductor_export import export_inductor

    rule = _write(tmp_path, "relu_to_abs", '''
        import torch

        def pattern(x):
            return torch.relu(x)

        def replacement_args(x):
            return (x,)

        def absolute(x):
            return torch.abs(x)

        def replacement_func():
            return absolute
        ''')  # deliberately not value-preserving: the output says which code ran
    exported = export_inductor([rule], tmp_path / "pkgs" / "exported")
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "inductor_cache"),
           "TORCHINDUCTOR_FX_GRAPH_CACHE": "1", "TORCHINDUCTOR_AUTOGRAD_CACHE": "1"}
    proc = subprocess.run([sys.executable, "-c", _CACHE_SCRIPT, str(tmp_path / "pkgs"), str(exported / "relu_to_abs.py")],
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    first, second, third = json.loads(proc.stdout.strip().splitlines()[-1])
    assert first["out"] == [3.0, 6.0] and first["matches"] == {"relu_to_abs": 1} and first["hit"] == 0
    assert second["out"] == [3.0, 6.0] and second["uuid"] == first["uuid"] and second["hit"] >= 1
    assert third["uuid"] != first["uuid"]
    assert third["out"] == [33.0, 36.0] and third["hit"] == 0  # never the stale cached graph


def test_two_exported_passes_compose_without_leaking(tmp_path: Path) -> None:
    import torch._inductor.config as inductor_config

    from passagent.tools.passes.inductor_export import RewritePass, WrongGraphLevel, export_inductor, inductor_options

    a = export_inductor([_write(tmp_path, "a", PASS_A)], tmp_path / "exp_a")
    b = export_inductor([_write(tmp_path, "b", PASS_B)], tmp_path / "exp_b")
    pa, pb = RewritePass(a), RewritePass(b)
    assert pa.uuid() != pb.uuid() and pa.uuid() == RewritePass(a).uuid()  # stable, and distinct per pass
    x = torch.randn(5, 3)
    torch._dynamo.reset()
    out = torch.compile(model, options=inductor_options(pa, pb))(x)
    torch.testing.assert_close(out, model(x))
    assert pa.matches_by_rule() == {"a": 1} and pb.matches_by_rule() == {"b": 1}  # A first, B on what A left
    assert inductor_config.pre_grad_custom_pass is None  # options= never touched the global config
    torch._dynamo.reset()
    torch.compile(model)(x)  # a later plain compile does not run them
    assert pa.matches_by_rule() == {"a": 1} and len(pa.applications) == 1
    # Registered at a post-grad hook by mistake: a clear error, not a silent no-match.
    aten = torch.fx.symbolic_trace(lambda t: torch.ops.aten.relu.default(t))
    with pytest.raises(WrongGraphLevel, match="pre_grad_custom_pass"):
        pa(aten.graph)


# --- reach and whole models -----------------------------------------------------------------


def test_match_only_coverage_counts_matches_and_flags_overfit(tmp_path: Path, cache_root: Path) -> None:
    import shutil

    from passagent.tools.inspection.coverage import coverage
    from passagent.tools.evaluation.evaluate import EvalOptions

    corpus = tmp_path / "corpus"
    for name in (BIGBIRD.name, "hf__sadhaklal_mlp-iris"):
        shutil.copytree(GRAPHNET / name, corpus / name)
    passes = [REPO / "examples" / "passes" / "b511_pooler_dir", REPO / "examples" / "passes" / "623d_drop_dead_rand.py"]
    report = coverage(corpus, passes, EvalOptions(cache_root=cache_root), measure=False)
    pooler, rand = report
    by_graph = {g.graph: g for g in pooler.graphs}
    assert by_graph[BIGBIRD.name].matches >= 1 and by_graph["hf__sadhaklal_mlp-iris"].matches == 0
    rules = {r["rule"]: r for r in by_graph[BIGBIRD.name].rules}
    assert rules["DropDeadPooler"]["matches"] >= 1 and rules["DropDeadPooler"]["sites"]
    assert pooler.overfit is None and rand.overfit == "no match" and rand.total_matches == 0
    assert all(g.result is None for g in pooler.graphs)  # match-only: nothing measured


@pytest.mark.slow
def test_apply_on_a_whole_model_graph_stays_within_tolerance(tmp_path: Path, cache_root: Path) -> None:
    """``passagent apply`` on the whole tiny BigBird graph with a value-preserving rule (the
    pooler's tanh as 2 sigmoid(2y) - 1): it matches, and the whole model stays correct at t=-5."""
    tanh = _write(tmp_path, "tanh_via_sigmoid", '''
        import torch

        def pattern(y):
            return torch.tanh(y)

        def replacement_args(y):
            return (y,)

        def via_sigmoid(y):
            return 2 * torch.sigmoid(2 * y) - 1

        def replacement_func():
            return via_sigmoid
        ''')
    proc = subprocess.run(
        [sys.executable, "-m", "passagent.agent.cli.app", "apply", str(tanh), "--model-graph", str(BIGBIRD), "--json",
         "--cache-dir", str(cache_root), "--timing-budget", "0.2"],
        capture_output=True, text=True, timeout=1800,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    sg = json.loads(proc.stdout)["subgraphs"][0]
    assert sg["status"] == "correct", sg.get("message")
    assert sg["candidate_error"]["min_correct_t"] <= -5
    rule = sg["rules"][0]
    assert rule["rule"] == "tanh_via_sigmoid" and rule["matches"] >= 1 and "model.py:" in rule["sites"][0]
    assert sg["speedup_vs_eager"] and sg["speedup_vs_inductor"]


def test_apply_reports_a_rule_that_breaks_a_whole_model(tmp_path: Path, cache_root: Path) -> None:
    """The b511 pooler rule assumes the pooler's output is dead; a sequence classifier returns
    it, so on the whole BigBird graph the rule matches and ``apply`` reports a wrong output."""
    from passagent.tools.passes.compose import composed_pass_dir
    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks.loader import load_task

    combined = composed_pass_dir([REPO / "examples" / "passes" / "b511_pooler_dir"], tmp_path / "c")
    result = evaluate_pass(load_task(BIGBIRD), combined, EvalOptions(cache_root=cache_root, timing_budget_s=0.1))
    sg = result.subgraphs[0]
    assert {r.rule: r.matches for r in sg.rules}["DropDeadPooler"] == 1
    assert sg.status == "runtime" and "output mismatch" in (sg.message or "")


def test_exported_pass_rewrites_dynamo_graphs_as_the_backend_does(tmp_path: Path) -> None:
    """The same Dynamo graph, rewritten by the harness's backend and by the exported pass."""
    from copy import deepcopy

    import passagent
    from passagent.tools.passes.inductor_export import RewritePass, export_inductor

    a, b = _write(tmp_path, "a", PASS_A), _write(tmp_path, "b", PASS_B)
    exported = RewritePass(export_inductor([a, b], tmp_path / "exp_ab"))
    captured: list[torch.fx.GraphModule] = []

    def capture(gm: torch.fx.GraphModule, _inputs: list) -> object:
        captured.append(torch.fx.GraphModule(gm, deepcopy(gm.graph)))
        return gm.forward

    torch._dynamo.reset()
    x = torch.randn(4, 4)
    torch.compile(model, backend=capture)(x)
    for_backend, for_export = (torch.fx.GraphModule(captured[0], deepcopy(captured[0].graph)) for _ in range(2))
    be = passagent.backend(str(a), str(b), inductor=False)
    be(for_backend, [x])  # the backend's own call, as torch.compile makes it
    exported(for_export.graph)  # Inductor's pre-grad hook calls the pass with the graph
    for_export.recompile()
    assert for_export.code == for_backend.code and "clamp_min" in for_export.code
    assert list(exported.matches_by_rule().values()) == list(be.matches_by_rule().values()) == [1, 1]


@pytest.mark.parametrize("argv, says", [
    (["apply", "missing.py", "--model-graph", str(BIGBIRD)], "does not exist"),
    (["apply", str(REPO / "examples" / "passes" / "b511_skip_single_cat.py"), "--model-graph", "/no/such/graph"], "no such task"),
    (["export-pass", str(REPO / "examples" / "passes" / "b511_skip_single_cat.py"), "--as", "tvm", "-o", "x"], "--as must be 'inductor'"),
    (["export-pass", str(REPO / "examples" / "passes" / "b511_skip_single_cat.py"), "-o", "not-an-identifier"], "Python identifier"),
    (["coverage", "--graphs", str(GRAPHNET)], "Missing argument"),
])
def test_cli_bad_input_is_one_line_and_exit_2(argv: list[str], says: str, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert says in proc.stderr
    assert not list(tmp_path.iterdir())  # nothing written


def test_passes_compose_where_inductor_takes_no_list() -> None:
    """torch 2.11's Inductor calls its custom-pass setting directly: several passes become one
    CustomGraphPass that runs each in order, with a uuid joining theirs."""
    from torch._inductor.custom_graph_pass import CustomGraphPass

    from passagent.tools.passes.backend import compose_passes, custom_pass_list

    seen: list[str] = []

    class Mark(CustomGraphPass):
        def __init__(self, name: str, uid: str | None):
            self.name, self.uid = name, uid

        def __call__(self, graph) -> None:
            seen.append(self.name)

        def uuid(self):
            return self.uid

    a, b = Mark("a", "1"), Mark("b", "2")
    assert compose_passes([a, b], lists_accepted=True) == [a, b]
    one = compose_passes([a, b], lists_accepted=False)
    one(None)
    assert seen == ["a", "b"] and isinstance(one, CustomGraphPass)
    assert one.uuid() == compose_passes([a, b], lists_accepted=False).uuid() != compose_passes([b, a], lists_accepted=False).uuid()
    assert compose_passes([a, Mark("c", None)], lists_accepted=False).uuid() is None  # no uuid: Inductor bypasses its cache
    assert compose_passes([a], lists_accepted=False) is a and compose_passes([], lists_accepted=False) is None
    assert custom_pass_list(None) == [] and custom_pass_list(a) == [a] and custom_pass_list((a, b)) == [a, b]


@pytest.mark.parametrize("check, matches", [("x.dtype == torch.float16", 0), ("x.dim() == 2 and x.shape[0] == 4", 1)])
def test_exported_pass_keeps_the_rules_match_check(tmp_path: Path, check: str, matches: int) -> None:
    """A rule's match_check travels with the exported pass and decides there as in the harness."""
    from copy import deepcopy

    from passagent.tools.passes.inductor_export import RewritePass, export_inductor

    rule = _write(tmp_path, "a", PASS_A + f"\n\ndef match_check(x):\n    return {check}\n")
    exported = RewritePass(export_inductor([rule], tmp_path / "exp_checked"))
    captured: list[torch.fx.GraphModule] = []

    def capture(gm: torch.fx.GraphModule, _inputs: list) -> object:
        captured.append(torch.fx.GraphModule(gm, deepcopy(gm.graph)))
        return gm.forward

    torch._dynamo.reset()
    torch.compile(model, backend=capture)(torch.randn(4, 4))
    exported(captured[0].graph)
    assert list(exported.matches_by_rule().values()) == [matches]
