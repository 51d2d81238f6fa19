"""Reading an ``evaluate_pass`` result as the built-in policy does, and deciding whether a
candidate is kept.

The policy reads the same text a model reads (:func:`passagent.agent.run.condense.describe_eval`):
the head line ``AS = a vs <baseline> (AS = b vs <other>); default Inductor AS = c, AS/AS(Inductor)
= r; correct@-5: k/n; ...`` and one block per subgraph with ``correct at: t>=x ...; default Inductor
correct at: t>=y``.

A candidate is compared with default Inductor by ``r``, both AS against eager from the same timings,
each with its own correctness (SCORING.md, "Comparing with Inductor"; the PassNet leaderboard's
comparison). ``b`` (speedups against Inductor, correctness against the reference) is the fallback
for texts without ``r`` (Inductor's times came from nowhere).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEAD = re.compile(r"AS = ([0-9.eE+-]+) vs (\w+)(?: \(AS = ([0-9.eE+-]+) vs (\w+)\))?")
_CORRECT = re.compile(r"correct@-5: (\d+)/(\d+)")
_BLOCK = re.compile(r"^\[(\d+)\] \S+ \([^)]*\): (\w+)", re.M)
_RATIO = re.compile(r"AS/AS\(Inductor\) = ([0-9.eE+-]+)")
_INDUCTOR_AT = re.compile(r"default Inductor correct at: (?:t>=(-?\d+)|never|n/a)")
HEADLINE_T = -5
MIN_IMPROVEMENT = 0.01


@dataclass(frozen=True)
class Verdict:
    """One evaluation as the policy reads it.

    Attributes:
        score: AS against the run's baseline (0.0 when the evaluation failed outright).
        vs_inductor: the candidate against default Inductor: ``AS / AS(Inductor)`` where the text gives
            it, else the AS with speedups against Inductor (either baseline), else None.
        correct, total: subgraphs correct at t = -5, and subgraphs.
        regressions: subgraphs that fail at t = -5 where default Inductor is correct there.
        error: the error text when the evaluation itself failed, else None.
    """

    score: float
    vs_inductor: float | None
    correct: int
    total: int
    regressions: tuple[int, ...]
    error: str | None = None


def read_verdict(text: str) -> Verdict:
    """Parse ``evaluate_pass``'s text; an ``error: ...`` text (or one without scores) is a failed evaluation."""
    head = _HEAD.search(text)
    if text.startswith("error") or head is None:
        return Verdict(0.0, None, 0, 0, (), error=text.splitlines()[0][:200] if text else "no result")
    score = float(head.group(1))
    vs_inductor = score if head.group(2) == "inductor" else (float(head.group(3)) if head.group(4) == "inductor" else None)
    if (ratio := _RATIO.search(text)) is not None:
        vs_inductor = float(ratio.group(1))
    m = _CORRECT.search(text)
    correct, total = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    regressions = []
    blocks = list(_BLOCK.finditer(text))
    for k, b in enumerate(blocks):
        if b.group(2).lower() == "correct":
            continue
        body = text[b.end(): blocks[k + 1].start() if k + 1 < len(blocks) else len(text)]
        at = _INDUCTOR_AT.search(body)
        inductor_t = int(at.group(1)) if at and at.group(1) is not None else None
        # No line about Inductor (the candidate never ran): count it as a regression too.
        if at is None or (inductor_t is not None and inductor_t <= HEADLINE_T):
            regressions.append(int(b.group(1)))
    return Verdict(score, vs_inductor, correct, total, tuple(regressions))


def judge(v: Verdict, best: float | None) -> tuple[bool, str]:
    """Whether to keep a candidate evaluated on top of the rules kept so far, and why (one line).

    Args:
        v: its evaluation. best: the AS of the best kept combination, None before anything is kept.

    A candidate is discarded when the evaluation failed, when it fails t = -5 on a subgraph where
    default Inductor passes, when (as the first rule) it is not faster than Inductor, or when it
    raises AS by less than :data:`MIN_IMPROVEMENT` (relative).
    """
    if v.error is not None:
        return False, f"the evaluation failed: {v.error}"
    if v.regressions:
        return False, (f"incorrect at t=-5 on subgraph(s) {', '.join(map(str, v.regressions))} "
                       f"where default Inductor is correct ({v.correct}/{v.total} correct)")
    if best is None:
        if v.vs_inductor is not None and v.vs_inductor <= 1.0:
            return False, f"does not beat default Inductor (AS / AS(Inductor) {v.vs_inductor:.4f}, AS {v.score:.4f})"
        return True, f"AS {v.score:.4f}" + (f", AS / AS(Inductor) {v.vs_inductor:.4f}" if v.vs_inductor is not None else "")
    if v.score > best * (1 + MIN_IMPROVEMENT):
        return True, f"AS {best:.4f} -> {v.score:.4f} ({v.score / best - 1:+.1%})"
    return False, f"no gain on the rules kept so far (AS {v.score:.4f} vs {best:.4f}, {v.score / best - 1:+.1%})"
