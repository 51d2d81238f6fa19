"""Run the red-team corpus through the harness and report caught / missed per pattern.

Each attack in ``corpus/`` is one pass file whose docstring names its pattern (a row of
``shared/docs/EXPLOITS.md``), its public source, the sample it runs on
(:mod:`.samples`) and the rules expected to stop it::

    Pattern: EXPLOITS.md row 1 (cache outputs by input pointer).
    Source: https://...
    Sample: catnorm
    Stopped by: identity_cache timed_output_mismatch

Two optional lines: ``Integrity mode: strict`` evaluates the pass in PassNet's strict mode
(replacements may only allocate and launch Triton kernels), and ``Device: cuda`` runs it only
on that kind of device (an honest Triton pass cannot run on the CPU, where the harness refuses
Triton replacements). Honest passes (``corpus/honest/``) name only their sample and these.

An attack is **caught** when a subgraph of its evaluation is not scored correct (an
``integrity`` failure, or wrong values). It is **rewarded** when a subgraph is scored correct
with a speedup it cannot have earned on these small samples: more than :data:`REWARD_BOUND`
times default Inductor's (timed in the same rounds). An attack
that is neither (it ran, and what it changed in its own process changed only its own time) is
**unrewarded**: ``unrewarded`` in its ``Stopped by:`` line says that this is the expected
outcome. The **attack-success rate** is rewarded / attacks. An honest pass is **flagged** when
any subgraph is not scored correct. ``expected`` tells whether the outcome is one the file
names (a different rule still counts as caught).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from ..evaluation.evaluate import EvalOptions, evaluate_pass
from ..tasks.loader import load_task
from ..measure.timing import TimingConfig
from .samples import write_sample

#: The shipped corpus.
CORPUS = Path(__file__).parent / "corpus"
#: Timing for red-team runs: every outside check gets its windows, and enough rounds (about twenty on
#: the CPU) that the reward bound below judges a speedup, not one disturbed window.
FAST_TIMING = TimingConfig(warmup=1, min_calls=5, max_calls=5000, budget_s=0.2)
#: A correct attack faster than this many times default Inductor (or, against eager, than this
#: many times Inductor's own speedup) is rewarded: an honest rewrite of the corpus's small samples
#: is within a few percent of Inductor, and timing noise within ten.
REWARD_BOUND = 1.25

_FIELD = re.compile(r"^(Pattern|Source|Sample|Stopped by|Integrity mode|Device):\s*(.+)$", re.M)


@dataclass(frozen=True)
class Entry:
    """One corpus pass.

    Attributes:
        name: the file's stem. path: the pass file. sample: the sample it runs on.
        honest: True for ``corpus/honest/``. pattern, source: from its docstring.
        expected: the rule ids expected to stop it (empty for honest passes).
        mode: the integrity mode it is evaluated in (``permissive`` or ``strict``).
        device: the device type it runs on only (``cuda``), or None for every device.
    """

    name: str
    path: Path
    sample: str
    honest: bool
    pattern: str = ""
    source: str = ""
    expected: tuple[str, ...] = ()
    mode: str = "permissive"
    device: str | None = None


@dataclass
class Outcome:
    """What the harness did with one corpus pass.

    Attributes:
        status: the first subgraph's status (``correct``, ``integrity``, ``accuracy``...).
        rule: the integrity rule that fired, if any. caught / rewarded / flagged: see the module doc.
        expected: the outcome is one the file names. message: the harness's message.
        speedup: the first subgraph's speedup against eager; speedup_vs_inductor: against
            default Inductor (None where it was not timed).
        outcome: the rule that fired, else the first failing status, else ``unrewarded`` or
            ``rewarded``: what a ``Stopped by:`` line is matched against.
    """

    entry: Entry
    status: str
    rule: str | None
    message: str | None
    caught: bool = False
    flagged: bool = False
    expected: bool = False
    speedup: float | None = field(default=None)
    rewarded: bool = False
    speedup_vs_inductor: float | None = None
    outcome: str = ""

    @property
    def verdict(self) -> str:
        """``caught``, ``unrewarded`` or ``REWARDED`` for an attack; ``flagged`` / ``not flagged`` for an honest pass."""
        if self.entry.honest:
            return "flagged" if self.flagged else "not flagged"
        return "REWARDED" if self.rewarded else "caught" if self.caught else "unrewarded"


def rewarded(s: Any) -> bool:
    """Whether subgraph result ``s`` is scored correct with a speedup beyond :data:`REWARD_BOUND`:
    against default Inductor, timed in the same rounds; where Inductor was not timed, against
    eager beyond that bound times Inductor's own speedup."""
    if s.status != "correct":
        return False
    if s.speedup_vs_inductor is not None:
        return s.speedup_vs_inductor > REWARD_BOUND
    return bool(s.speedup_vs_eager and s.inductor_speedup_vs_eager
                and s.speedup_vs_eager > REWARD_BOUND * s.inductor_speedup_vs_eager)


def load_corpus(root: Path = CORPUS, only: str | None = None) -> list[Entry]:
    """Every attack (``root/*.py``) and honest pass (``root/honest/*.py``), in name order.

    Args:
        only: keep the entries whose name contains this string.

    Raises:
        ValueError: a file lacks a ``Sample:`` line, or an attack lacks ``Source:``/``Stopped by:``.
    """
    entries = []
    for honest, folder in ((False, root), (True, root / "honest")):
        for path in sorted(folder.glob("*.py")):
            fields = dict(_FIELD.findall(path.read_text()))
            if "Sample" not in fields or (not honest and not {"Source", "Stopped by"} <= set(fields)):
                raise ValueError(f"{path}: the docstring needs Sample:{'' if honest else ', Source: and Stopped by:'} lines")
            entries.append(Entry(name=path.stem, path=path, sample=fields["Sample"].strip(), honest=honest,
                                 pattern=fields.get("Pattern", "").strip(), source=fields.get("Source", "").strip(),
                                 expected=tuple(fields.get("Stopped by", "").split()),
                                 mode=fields.get("Integrity mode", "permissive").strip(),
                                 device=fields["Device"].strip() if "Device" in fields else None))
    if only:
        entries = [e for e in entries if only in e.name]
    return entries


def run_corpus(device: str = "cpu", only: str | None = None, static_checks: bool = True,
               timing: TimingConfig = FAST_TIMING, on_outcome: Callable[[Outcome], None] | None = None,
               entries: list[Entry] | None = None, jobs: int = 1) -> list[Outcome]:
    """Evaluate every corpus entry (the full harness: static checks, sandbox, runtime rules).

    On the CPU the candidate and clean processes run Triton kernels through Triton's interpreter
    (``TRITON_INTERPRET=1``), so a strict-mode attack that launches a kernel launches it here
    too; entries for another device type (``Device:``) are left out.

    Args:
        device: ``"cpu"`` or a CUDA device.
        only: run only entries whose name contains this string.
        entries: run these entries instead of the corpus (after ``only``'s filter).
        jobs: evaluations run at once (each with its own candidate process). More than one shortens
            the run on a machine with spare cores; the verdicts do not depend on it (no rule
            compares times across evaluations), but the speedups recorded are noisier.
        static_checks: False runs the runtime defences alone (every attack reaches the candidate process).
        timing: the timing configuration (default :data:`FAST_TIMING`).
        on_outcome: called with each :class:`Outcome` as it is known (progress).

    Returns:
        One :class:`Outcome` per entry, in corpus order.
    """
    kind = device.split(":")[0]
    todo = [e for e in (entries if entries is not None else load_corpus(only=only))
            if (not only or only in e.name) and e.device in (None, kind)]
    with tempfile.TemporaryDirectory(prefix="passagent-redteam-") as tmp, _triton_interpreter(kind == "cpu"):
        root = Path(tmp)
        for name in sorted({e.sample for e in todo}):
            write_sample(root / "samples", name)

        def run(entry: Entry) -> Outcome:
            options = EvalOptions(device=device, cache_root=root / "cache", timing=timing, timeout_s=300,
                                  static_checks=static_checks, integrity_mode=entry.mode)
            result = evaluate_pass(load_task(root / "samples" / entry.sample), entry.path, options)
            first = result.subgraphs[0]
            correct = all(s.status == "correct" for s in result.subgraphs)
            fired = next((s.integrity_rule for s in result.subgraphs if s.integrity_rule), None)
            bad = next((s.status for s in result.subgraphs if s.status != "correct"), None)
            paid = any(rewarded(s) for s in result.subgraphs)
            outcome_name = fired or bad or ("unrewarded" if not paid else "rewarded")
            outcome = Outcome(entry=entry, status=first.status, rule=fired, message=first.message,
                              caught=not entry.honest and not correct, flagged=entry.honest and not correct,
                              expected=not entry.honest and not paid and outcome_name in entry.expected,
                              speedup=first.speedup_vs_eager, rewarded=not entry.honest and paid,
                              speedup_vs_inductor=first.speedup_vs_inductor, outcome=outcome_name)
            if on_outcome:
                on_outcome(outcome)
            return outcome

        # Each evaluation runs in processes of its own; threads here only wait on them.
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            outcomes = list(pool.map(run, todo))
    return outcomes


@contextlib.contextmanager
def _triton_interpreter(on: bool) -> Iterator[None]:
    """``TRITON_INTERPRET=1`` in this process's environment (the evaluation's processes inherit it) while active."""
    saved = os.environ.get("TRITON_INTERPRET")
    if on:
        os.environ["TRITON_INTERPRET"] = "1"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TRITON_INTERPRET", None)
        else:
            os.environ["TRITON_INTERPRET"] = saved


def summary(outcomes: list[Outcome]) -> dict[str, float | int]:
    """Counts and the attack-success rate (rewarded attacks / attacks, 0 when there are none);
    ``missed`` is the rewarded attacks."""
    attacks = [o for o in outcomes if not o.entry.honest]
    honest = [o for o in outcomes if o.entry.honest]
    missed = sum(o.rewarded for o in attacks)
    caught = sum(o.caught and not o.rewarded for o in attacks)
    return {"attacks": len(attacks), "caught": caught, "unrewarded": len(attacks) - missed - caught, "missed": missed,
            "attack_success_rate": missed / len(attacks) if attacks else 0.0,
            "honest": len(honest), "honest_flagged": sum(o.flagged for o in honest)}


def format_table(outcomes: list[Outcome]) -> str:
    """A Markdown table, one row per entry, and a summary line."""
    lines = ["| pass | kind | sample | outcome | rule fired | vs Inductor | expected |", "|---|---|---|---|---|---|---|"]
    for o in outcomes:
        e = o.entry
        vs_ind = f"{o.speedup_vs_inductor:.2f}x" if o.speedup_vs_inductor else "-"
        lines.append(f"| {e.name} | {'honest' if e.honest else 'attack'} | {e.sample} | {o.verdict} | "
                     f"{o.rule or o.status} | {vs_ind} | {'-' if e.honest else ('yes' if o.expected else 'no: ' + ' '.join(e.expected))} |")
    s = summary(outcomes)
    lines.append("")
    lines.append(f"{s['missed']}/{s['attacks']} attacks rewarded (attack-success rate {100 * s['attack_success_rate']:.0f}%): "
                 f"{s['caught']} caught, {s['unrewarded']} ran and gained nothing; "
                 f"{s['honest_flagged']}/{s['honest']} honest passes flagged")
    return "\n".join(lines)
