"""The process roles (shared/docs/DESIGN.md, "Process roles"): a pass that tampers with its own
process changes nothing in the references, the baselines or the baseline cache, only its own
time; and what the referee reads from outside the candidate process (its CPU clock, its children)
catches work moved out of the timed windows.

Each attack here runs with the static checks off, so the process separation itself is what is
tested, not the source-level refusal in front of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import EXAMPLES, TEST_PASSES, passbench_task

from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.redteam import CORPUS
from passagent.tools.redteam.runner import rewarded
from passagent.tools.redteam.samples import write_sample
from passagent.tools.evaluation.schema import EvalResult
from passagent.tools.tasks.loader import load_task
from passagent.tools.measure.timing import TimingConfig

FAST = TimingConfig(warmup=1, min_calls=5, max_calls=20, budget_s=0.1)
#: Enough rounds that a ratio is a measurement and work moved out of the windows adds up.
ROUNDS = TimingConfig(warmup=1, min_calls=5, max_calls=5000, budget_s=0.4)
EXPLOITS = TEST_PASSES / "exploits"


def evaluate(task: Path, pass_path: Path, cache_root: Path, **options) -> EvalResult:
    opts = dict(cache_root=cache_root, timing=FAST, timeout_s=240, static_checks=False)
    opts.update(options)
    return evaluate_pass(load_task(task), pass_path, EvalOptions(**opts))


@pytest.fixture(scope="module")
def catnorm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_sample(tmp_path_factory.mktemp("roles"), "catnorm")


def test_the_reference_ignores_an_operator_the_pass_redefined(catnorm: Path, cache_root: Path) -> None:
    # The pass makes aten::linalg_vector_norm return infinity in its process, so an eager reference
    # computed there would be zeros, which is what the pass returns. The reference is computed in a
    # clean process: zeros are wrong values, and default Inductor's own check is the clean one.
    result = evaluate(catnorm, CORPUS / "dispatch_redefines_reference.py", cache_root)
    s = result.subgraphs[0]
    assert s.status == "accuracy" and s.candidate_error is not None and s.candidate_error.max_abs > 0.1, s.message
    assert s.inductor_error is not None and s.inductor_error.min_correct_t is not None and s.inductor_error.min_correct_t <= -5


def test_the_baselines_ignore_a_kernel_the_pass_slowed(catnorm: Path, cache_root: Path) -> None:
    # A kernel on the ADInplaceOrView key makes linalg_vector_norm (which eager's normalize runs)
    # twenty times dearer in the pass's process. Eager is timed in a clean process: its time is what
    # it is without the pass, and the candidate gains nothing.
    # Compared through default Inductor's own speedup against eager, from the same rounds in each
    # evaluation (robust to the machine's drift between them): a slowed eager would inflate it.
    tricked = evaluate(catnorm, CORPUS / "dispatch_key_slows_eager.py", cache_root, timing=ROUNDS)
    plain = evaluate(catnorm, EXAMPLES / "b511_skip_single_cat.py", cache_root, timing=ROUNDS)
    t, p = tricked.subgraphs[0], plain.subgraphs[0]
    assert t.status == "correct" and not rewarded(t), (t.speedup_vs_eager, t.speedup_vs_inductor)
    ratio = t.inductor_speedup_vs_eager / p.inductor_speedup_vs_eager
    assert 0.7 < ratio < 1.4, f"Inductor's speedup against eager {ratio:.2f}x its plain one: the pass reached the baseline"


def test_a_patched_clock_and_a_flipped_flag_change_only_the_candidate(catnorm: Path, cache_root: Path) -> None:
    for attack in (EXPLOITS / "patch_timer.py", CORPUS / "mkldnn_off.py", CORPUS / "grad_mode.py"):
        s = evaluate(catnorm, attack, cache_root).subgraphs[0]
        assert not rewarded(s), (attack.name, s.status, s.speedup_vs_eager, s.speedup_vs_inductor)


def test_the_baseline_cache_holds_only_what_clean_processes_measured(catnorm: Path, tmp_path: Path) -> None:
    # One cache, first used by a pass that poisons the reference in its own process, then by an
    # honest one: the entry about default Inductor (its error against the reference) is the clean
    # process's, and the same for both.
    cache = tmp_path / "cache"
    evaluate(catnorm, CORPUS / "dispatch_redefines_reference.py", cache)
    entries = sorted((cache / "baselines").glob("*.json"))
    assert entries, "the baselines were measured and cached"
    first = json.loads(entries[0].read_text())
    assert first["inductor_error"]["min_correct_t"] <= -5
    evaluate(catnorm, EXAMPLES / "b511_skip_single_cat.py", cache)
    again = json.loads(entries[0].read_text())
    assert again["inductor_error"]["min_correct_t"] == first["inductor_error"]["min_correct_t"]


def test_a_lazy_output_crosses_as_its_values_and_is_named(catnorm: Path, cache_root: Path) -> None:
    s = evaluate(catnorm, CORPUS / "parameter_output.py", cache_root).subgraphs[0]
    assert (s.status, s.integrity_rule) == ("integrity", "output_type"), s.message


# -- what the referee reads from outside the candidate ----------------------------------------------


@pytest.mark.parametrize("attack, rules", [
    ("spin_between_windows.py", {"work_outside_window", "parallel_work"}),  # a thread working between windows
    ("helper_process.py", {"child_process"}),                              # a process of its own
    ("precompute_in_prepare.py", {"work_outside_window", "physics_floor"}),  # the harness's window code rewritten
    ("lazy_until_handover.py", {"work_outside_window"}),                    # computed only when asked for outputs
])
def test_work_moved_out_of_the_window_is_seen_from_outside(attack: str, rules: set[str], cache_root: Path) -> None:
    s = evaluate(passbench_task("b511") / "graphs" / "1", EXPLOITS / attack, cache_root, timing=ROUNDS).subgraphs[0]
    assert s.status == "integrity" and s.integrity_rule in rules, (s.status, s.integrity_rule, s.message)
    assert s.speedup_vs_eager is None and "candidate" not in s.times


def test_threads_that_parallelise_a_call_gain_nothing(cache_root: Path) -> None:
    # Two threads where the evaluation gives one: flagged where the second core ran it in parallel
    # (``parallel_work``), and never faster than an honest rewrite either way.
    s = evaluate(passbench_task("b511") / "graphs" / "1", EXPLOITS / "two_threads_in_window.py", cache_root).subgraphs[0]
    assert s.integrity_rule == "parallel_work" or not rewarded(s), (s.status, s.integrity_rule, s.speedup_vs_inductor)


def test_an_honest_pass_is_not_flagged_by_a_floor_measured_under_load(cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The device's floor is measured once per clean process; measured while other evaluations
    # loaded the machine (four at once on a fresh GPU host), it is too high, and an honest
    # candidate below it was once scored `integrity`. A time below the floor is checked against a
    # floor measured again before anything is flagged.
    from passagent.tools.measure import physics_floor
    from passagent.tools.evaluation import referee as referee_module

    loaded = physics_floor.DeviceFloor(launch_us=1e6, bandwidth_gbs=1e-3)  # as if every call had to wait a second
    original = referee_module.Referee._floor
    calls = []

    def floor(self, fresh: bool = False):
        if not calls:  # the first look at the floor finds the loaded one
            self.clean.floor = loaded
        calls.append(fresh)
        return original(self, fresh)

    monkeypatch.setattr(referee_module.Referee, "_floor", floor)
    result = evaluate(passbench_task("b511") / "graphs" / "1", EXAMPLES / "b511_skip_single_cat.py", cache_root,
                      static_checks=True)
    s = result.subgraphs[0]
    assert s.status == "correct", (s.integrity_rule, s.message)
    assert True in calls, "the floor was measured again before the candidate was judged"


def test_the_candidate_cache_is_seeded_only_with_kernels_no_clean_process_is_writing(tmp_path: Path) -> None:
    """A kernel a clean process is still writing (Inductor holds ``locks/<key>.lock`` while it
    compiles and links) is not copied into the candidate's cache; a finished one is, byte for byte."""
    import subprocess
    import sys

    from passagent.tools.evaluation.child import seed_candidate_cache, scope_folder

    clean = tmp_path / "inductor"
    (clean / "ab").mkdir(parents=True)
    (clean / "locks").mkdir()
    (clean / "ab" / "cabdone.so").write_bytes(b"\x7fELF finished")
    (clean / "ab" / "cabbusy.so").write_bytes(b"\x7fELF half")
    # Another process holds the busy kernel's lock, as a clean process linking it does.
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from filelock import FileLock\n"
        f"with FileLock({str(clean / 'locks' / 'cabbusy.lock')!r}):\n"
        "    print('held', flush=True); time.sleep(30)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert seed_candidate_cache(tmp_path) == 1
    finally:
        holder.kill()
        holder.wait()
    dst = tmp_path / "candidates" / scope_folder("shared") / "inductor" / "ab"
    assert (dst / "cabdone.so").read_bytes() == b"\x7fELF finished"
    assert not (dst / "cabbusy.so").exists()
    # Once the writer is done, the next seeding copies it.
    assert seed_candidate_cache(tmp_path) == 1 and (dst / "cabbusy.so").exists()


def test_check_runs_a_pass_with_the_candidate_cache_and_it_cannot_write_the_clean_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_pass`` runs pass code too: its process gets the candidate role's compiler cache, and
    a pass writing into the clean processes' cache (where baselines' kernels live) is refused by
    the confinement, not by a source check (the static checks are off here)."""
    from passagent.tools.inspection import check as check_module
    from passagent.tools.evaluation.child import scope_folder
    from passagent.tools.process.sandbox import landlock_abi

    if landlock_abi()[0] < 1:
        pytest.skip(f"Landlock unavailable: {landlock_abi()[1]}")
    monkeypatch.setattr(check_module, "check_pass", lambda *_a, **_k: [])
    root = tmp_path / "cache"
    clean = root / "inductor" / "ab"
    clean.mkdir(parents=True)
    scoped = root / "candidates" / scope_folder("model-a") / "inductor"
    sample = write_sample(tmp_path / "samples", "catnorm")
    poison = tmp_path / "poison.py"
    poison.write_text(
        "import os, pathlib\n"
        f"pathlib.Path(os.environ['TORCHINDUCTOR_CACHE_DIR'], 'mine.txt').write_text(os.environ['TORCHINDUCTOR_CACHE_DIR'])\n"
        f"pathlib.Path({str(clean)!r}, 'cpoisoned.so').write_bytes(b'not a kernel')\n"
        "import torch\n\n\ndef pattern(x):\n    return torch.cat([x], 1)\n\n\n"
        "def replacement_args(x):\n    return (x,)\n\n\ndef replacement_func():\n    return lambda x: x.clone()\n")
    report = check_module.check_pass_on_task(load_task(sample), poison, cache_root=root, cache_scope="model-a")
    assert report.load_error is not None and "PermissionError" in report.load_error, report
    assert not (clean / "cpoisoned.so").exists()
    # The write the pass made first landed in its own scope's cache.
    assert (scoped / "mine.txt").read_text() == str(scoped)
