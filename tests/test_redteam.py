"""The red-team corpus: every attack names its public source and the rules expected to stop it,
the static stage stops what it claims to and flags no honest pass, the report counts right, and
(marked slow) the whole corpus runs on the CPU through the real harness: 0 attacks missed, 0
honest passes flagged, each attack stopped by a rule it names."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from passagent.tools.integrity.rules import Breach  # noqa: F401 - the runtime rule ids live beside it
from passagent.tools.redteam import CORPUS, Outcome, format_table, load_corpus, summary
from passagent.tools.redteam.samples import SAMPLES, write_sample
from passagent.tools.integrity.static_checks import RULES, Mode, check_pass

#: Outcomes decided while the pass runs (not by static checks): the rules the referee, the clean
#: process and the candidate's rewrite apply, wrong values, and ``unrewarded`` (it ran and gained
#: nothing: what it changed was its own process).
RUNTIME_RULES = {"timed_output_mismatch", "output_aliases_input", "output_aliases_output", "output_type", "output_layout",
                 "no_change", "precision_downgrade", "shape_special_case", "input_mutated", "physics_floor", "accuracy",
                 "runtime", "sandbox", "strict_no_triton_launch", "strict_other_compute", "work_outside_window",
                 "parallel_work", "child_process", "deferred_device_work", "unrewarded"}
ENTRIES = load_corpus()
ATTACKS = [e for e in ENTRIES if not e.honest]
HONEST = [e for e in ENTRIES if e.honest]


def test_the_corpus_covers_at_least_25_patterns_each_with_a_source() -> None:
    assert len(ATTACKS) >= 25
    for e in ATTACKS:
        assert len(e.source) > 20, e.name  # a URL or a named public report (EXPLOITS.md's sources column)
        assert e.pattern.startswith("EXPLOITS.md row"), e.name
        assert e.expected and set(e.expected) <= set(RULES) | RUNTIME_RULES, (e.name, e.expected)
        assert e.sample in SAMPLES, e.name
    assert {e.sample for e in HONEST} <= set(SAMPLES) and len(HONEST) >= 4


@pytest.mark.parametrize("entry", ATTACKS, ids=[e.name for e in ATTACKS])
def test_static_stage_stops_an_attack_with_an_expected_rule_or_leaves_it_to_the_runtime(entry) -> None:
    violations = check_pass(entry.path, Mode(entry.mode))
    if violations:
        assert violations[0].rule in entry.expected, (entry.name, [v.rule for v in violations])
    else:
        assert set(entry.expected) & RUNTIME_RULES, f"{entry.name} passes the static checks and names no runtime rule"


@pytest.mark.parametrize("entry", HONEST, ids=[e.name for e in HONEST])
def test_no_honest_pass_is_flagged_statically(entry) -> None:
    assert check_pass(entry.path, Mode(entry.mode)) == []


def test_samples_load_as_tasks(tmp_path: Path) -> None:
    from passagent.tools.tasks.loader import load_task

    for name in SAMPLES:
        task = load_task(write_sample(tmp_path, name))
        assert len(task.subgraphs) == 1 and task.subgraphs[0].args


def test_load_corpus_refuses_an_attack_without_its_source(tmp_path: Path) -> None:
    (tmp_path / "honest").mkdir()
    (tmp_path / "bad.py").write_text('"""Exploit.\n\nSample: silu\n"""\n')
    with pytest.raises(ValueError, match="Source"):
        load_corpus(tmp_path)
    assert [e.name for e in load_corpus(only="return_in")] == ["return_input"]


def test_entries_carry_their_integrity_mode_and_device(monkeypatch) -> None:
    from passagent.tools.redteam import run_corpus

    by_name = {e.name: e for e in ENTRIES}
    assert (by_name["ghost_kernel"].mode, by_name["ghost_kernel"].device) == ("strict", None)
    assert (by_name["eval_exec"].mode, by_name["eval_exec"].device) == ("permissive", None)
    cuda_only = by_name["triton_silu_strict"]
    assert cuda_only.honest and (cuda_only.mode, cuda_only.device) == ("strict", "cuda")
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    assert run_corpus("cpu", entries=[cuda_only]) == []  # not for this device: nothing runs
    assert "TRITON_INTERPRET" not in os.environ  # the interpreter switch is undone


def test_summary_and_table_count_caught_unrewarded_rewarded_and_flagged() -> None:
    attack, honest = ATTACKS[0], HONEST[0]
    outcomes = [Outcome(attack, "integrity", attack.expected[0], "m", caught=True, expected=True),
                Outcome(ATTACKS[1], "correct", None, None, rewarded=True, speedup_vs_inductor=3.0),
                Outcome(ATTACKS[2], "correct", None, None, speedup_vs_inductor=1.01),
                Outcome(honest, "correct", None, None, flagged=False),
                Outcome(HONEST[1], "integrity", "no_change", "m", flagged=True)]
    s = summary(outcomes)
    assert (s["attacks"], s["caught"], s["unrewarded"], s["missed"], s["honest"], s["honest_flagged"]) == (3, 1, 1, 1, 2, 1)
    assert s["attack_success_rate"] == pytest.approx(1 / 3)
    table = format_table(outcomes)
    assert f"| {ATTACKS[1].name} | attack | {ATTACKS[1].sample} | REWARDED | correct | 3.00x |" in table
    assert f"| {ATTACKS[2].name} | attack | {ATTACKS[2].sample} | unrewarded | correct | 1.01x |" in table
    assert "1/3 attacks rewarded (attack-success rate 33%): 1 caught, 1 ran and gained nothing; 1/2 honest passes flagged" in table
    assert CORPUS.is_dir()


def test_an_attack_is_rewarded_only_beyond_the_honest_bound() -> None:
    from types import SimpleNamespace

    from passagent.tools.redteam.runner import REWARD_BOUND, rewarded

    def s(status: str, vs_ind: float | None, vs_eager: float | None = None, ind: float | None = None):
        return SimpleNamespace(status=status, speedup_vs_inductor=vs_ind, speedup_vs_eager=vs_eager, inductor_speedup_vs_eager=ind)

    assert not rewarded(s("correct", REWARD_BOUND * 0.99))
    assert rewarded(s("correct", REWARD_BOUND * 1.01))
    assert not rewarded(s("integrity", 10.0))
    assert rewarded(s("correct", None, vs_eager=3.0, ind=2.0)) and not rewarded(s("correct", None, vs_eager=2.2, ind=2.0))
    assert not rewarded(s("correct", 1.0, vs_eager=3.0, ind=1.0)), "Inductor timed in the same rounds decides"


def test_redteam_cli_runs_one_statically_stopped_attack() -> None:
    from typer.testing import CliRunner

    from passagent.agent.cli.app import app

    res = CliRunner().invoke(app, ["redteam", "--only", "eval_exec"])
    assert res.exit_code == 0, res.output
    assert "| eval_exec | attack | catnorm | caught | eval_exec | - | yes |" in res.output
    assert "0/1 attacks rewarded (attack-success rate 0%): 1 caught" in res.output


# -- the whole corpus through the harness, on the CPU -------------------------------------------

# Attacks that name a runtime rule run with the static checks off, so the runtime defence behind
# the static rule is what must stop them (an attack the static checks pass gets the same run as
# with them on; what the static stage does to the others is asserted above, through the same
# check_pass that evaluate_pass runs). Attacks whose static rule is their only defence, and the
# honest passes, run through the full harness. Together that is every entry once, which keeps the
# run to about one worker per entry (~15 s each on a 2-core CPU, most of it the worker's first
# Inductor compile).
_TRITON = importlib.util.find_spec("triton") is not None
RUNNABLE = [e for e in ENTRIES if _TRITON or "import triton" not in e.path.read_text()]
BEHIND_A_RUNTIME_RULE = [e for e in RUNNABLE if not e.honest and set(e.expected) & RUNTIME_RULES]
STATIC_ONLY = [e for e in RUNNABLE if not e.honest and not set(e.expected) & RUNTIME_RULES]


def test_the_ci_split_covers_every_cpu_entry_once() -> None:
    cpu = [e for e in RUNNABLE if e.device in (None, "cpu")]
    assert sorted(e.name for e in BEHIND_A_RUNTIME_RULE + STATIC_ONLY + [e for e in cpu if e.honest]) == sorted(e.name for e in cpu)
    assert len(BEHIND_A_RUNTIME_RULE) >= 25


#: Attacks that, with the static checks off, fail before any runtime rule can fire: Dynamo cannot
#: compile the graph that builds the subclass (the output_type rule is tested with
#: ``parameter_output``).
FAILS_BEFORE_A_RUNTIME_RULE = {"lazy_subclass": "compile"}


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_whole_corpus_on_the_cpu_misses_nothing_and_flags_no_honest_pass() -> None:
    from passagent.tools.redteam import run_corpus

    def progress(o: Outcome) -> None:
        print(f"redteam {o.entry.name}: {o.outcome}", flush=True)

    honest = [e for e in RUNNABLE if e.honest]
    # Two at a time: each evaluation's candidate process is mostly a single-threaded compile.
    full = run_corpus("cpu", entries=STATIC_ONLY + honest, jobs=2, on_outcome=progress)
    runtime = run_corpus("cpu", entries=BEHIND_A_RUNTIME_RULE, static_checks=False, jobs=2, on_outcome=progress)
    outcomes = full + runtime
    report = format_table(outcomes) + "".join(
        f"\n{o.entry.name}: {o.message}" for o in outcomes if o.flagged or o.rewarded or (not o.entry.honest and not o.caught and not o.expected))
    s = summary(outcomes)
    assert s["missed"] == 0 and s["honest_flagged"] == 0, report
    assert s["honest"] == len([e for e in honest if e.device in (None, "cpu")])
    assert s["attacks"] == len(STATIC_ONLY) + len(BEHIND_A_RUNTIME_RULE)
    for o in full:
        assert o.entry.honest or o.expected, (o.entry.name, o.rule or o.status, o.entry.expected)
    for o in runtime:
        fired = o.outcome
        if o.entry.name in FAILS_BEFORE_A_RUNTIME_RULE:
            assert fired == FAILS_BEFORE_A_RUNTIME_RULE[o.entry.name], (o.entry.name, fired, o.message)
            continue
        assert fired in set(o.entry.expected) & RUNTIME_RULES, (o.entry.name, fired, o.message)
