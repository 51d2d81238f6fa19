"""A rule's optional ``match_check``: it sees what each pattern parameter matched (a tensor's
metadata, or the literal) and decides per match whether the rule rewrites it.

On shared task b511 the same fragment ends graphs/0 (float16) and graphs/3 (bfloat16); a rule
that keeps to float16 rewrites the first and leaves the second as it was, saying why."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch

from helpers import passbench_task
from passagent.tools.passes.backend import PassBackend
from passagent.tools.tasks.inputs import clone_inputs, synthesize_inputs
from passagent.tools.passes.rules import RuleLoadFailure, load_rules
from passagent.tools.tasks.loader import load_task
from passagent.tools.evaluation.steps import build_module

RULE = '''
import torch

SEEN = []

def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=2, dim=1)

def replacement_args(x):
    return (x,)

def normalize_rows(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)

def replacement_func():
    return normalize_rows

def match_check(x):
{body}
'''


def rule(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "rule.py"
    path.write_text(RULE.format(body=textwrap.indent(textwrap.dedent(body).strip(), "    ")))
    return path


def run(pass_path: Path, index: int):
    """(backend, rewritten outputs, eager outputs) of b511's subgraph ``index`` (no Inductor)."""
    sg = load_task(passbench_task("b511")).subgraphs[index]
    args = synthesize_inputs(sg, 0, device=torch.device("cpu"))
    rules = load_rules(pass_path)
    backend = PassBackend(rules, use_inductor=False, check_no_change=False)
    torch._dynamo.reset()
    with torch.no_grad():
        got = torch.compile(build_module(sg, torch.device("cpu"), "cand"), backend=backend)(*clone_inputs(args))
        want = build_module(sg, torch.device("cpu"), "eager")(*clone_inputs(args))
    return backend, rules[0], got, want


def test_a_dtype_condition_rewrites_the_float16_subgraph_and_leaves_the_bfloat16_one(tmp_path: Path) -> None:
    path = rule(tmp_path, """
        SEEN.append((tuple(x.shape), x.dtype, x.device.type))
        return x.dtype == torch.float16
    """)
    backend, r, got, want = run(path, 0)
    assert backend.total_matches == 1
    [(shape, dtype, device)] = r.module.SEEN  # the matched value's metadata, as the graph records it
    assert dtype == torch.float16 and device == "cpu" and len(shape) == 2
    torch.testing.assert_close(got, want)

    backend, r, got, want = run(path, 3)  # bfloat16: matched, refused, left as it was
    assert backend.total_matches == 0 and r.module.SEEN[-1][1] == torch.bfloat16
    assert "match_check returned false" in backend.diagnostics()["rule"]
    torch.testing.assert_close(got, want)


def test_a_check_that_raises_fails_the_rule_with_its_error(tmp_path: Path) -> None:
    path = rule(tmp_path, "return x.shape[7] > 0")
    with pytest.raises(Exception, match="match_check raised IndexError") as info:  # Dynamo wraps the backend's error
        run(path, 0)
    assert "rule 'rule'" in str(info.value)


def test_a_match_check_that_is_not_a_function_does_not_load(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    path.write_text(RULE.format(body="    return True") + "\nmatch_check = True\n")
    with pytest.raises(RuleLoadFailure, match="match_check must be a function"):
        load_rules(path)


def test_two_rules_split_by_dtype_through_the_whole_evaluation(tmp_path: Path, cache_root: Path) -> None:
    """In the evaluation's candidate process (the held-out shape's compile included) each rule
    rewrites only the subgraphs its check accepts, and every subgraph is correct."""
    import json

    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.measure.timing import TimingConfig

    folder = tmp_path / "by_dtype"
    folder.mkdir()
    (folder / "half.py").write_text(RULE.format(body="    return x.dtype == torch.float16"))
    (folder / "bf16.py").write_text(RULE.format(body="    return x.dtype == torch.bfloat16"))
    (folder / "sorted_output_pass_rule_names.json").write_text(json.dumps(["half", "bf16"]))
    result = evaluate_pass(load_task(passbench_task("b511")), folder,
                           EvalOptions(cache_root=cache_root, timeout_s=120,
                                       timing=TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1)))
    by_name = {s.name: {r.rule: r.matches for r in s.rules} for s in result.subgraphs}
    assert all(s.status == "correct" for s in result.subgraphs), [(s.name, s.status, s.message) for s in result.subgraphs]
    assert by_name["graphs/0"] == {"half": 1, "bf16": 0} and by_name["graphs/3"] == {"half": 0, "bf16": 1}


def _split(tmp_path: Path, checks: dict[str, str]) -> Path:
    import json

    folder = tmp_path / "split"
    folder.mkdir(parents=True)
    for name, body in checks.items():
        (folder / f"{name}.py").write_text(RULE.format(body=f"    return {body}"))
    (folder / "sorted_output_pass_rule_names.json").write_text(json.dumps(list(checks)))
    return folder


def test_a_later_rules_diagnostic_is_about_the_captured_graph_not_an_earlier_rewrite(tmp_path: Path) -> None:
    """After an earlier rule rewrote the fragment, a later rule that matches nothing is not told to
    respell its pattern after the earlier replacement's nodes: it is told what happened."""
    backend, *_ = run(_split(tmp_path / "a", {"half": "x.dtype == torch.float16", "bf16": "x.dtype == torch.bfloat16"}), 0)
    why = backend.diagnostics()["bf16"]
    assert "matches the graph as captured" in why and "match_check returned false" in why
    assert "write the call exactly as the graph does" not in why
    backend, *_ = run(_split(tmp_path / "b", {"one": "True", "two": "True"}), 0)
    assert backend.matches_by_rule() == {"one": 1, "two": 0}
    assert "matches the graph as captured 1 time(s), but earlier rule(s) one rewrote that fragment first" in backend.diagnostics()["two"]
