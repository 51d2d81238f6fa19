"""The evaluation result: a versioned pydantic schema shared by ``passagent eval --json`` and the agent.

Bump :data:`SCHEMA_VERSION` on any change that removes or renames a field; adding an optional
field keeps the version. Times are microseconds; speedups are dimensionless ratios
``T_baseline / T_candidate``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1.0"

FailureClass = Literal["accuracy", "runtime", "compile", "integrity", "timeout"]
Status = Literal["correct", "accuracy", "runtime", "compile", "integrity", "timeout"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


TIME_STATISTICS = {"paired": "median_us", "median": "median_us", "p10": "p10_us"}
"""How a subgraph's speedup is estimated from one interleaved measurement (``EvalOptions.time_statistic``),
each mapped to the field of :class:`Timing` (and of ``tools.measure.timing.TimingStats``) that the times shown
beside the speedup come from.

- ``"paired"`` (the default, ``shared/docs/SCORING.md``): the median over interleaved rounds of the
  per-round ratio ``T_base / T_cand``. On the H200 the host's speed drifts by tens of percent within
  seconds; the ratio within one round cancels that drift where the ratio of two medians does not
  (same candidate timed twice against eager, 25 subgraphs: 0.79% median / 4.6% worst disagreement
  against 1.07% / 7.1% for the ratio of medians; ``benchmarks/RESULTS.md``, "Timing repeatability";
  ``benchmarks/eval_repeatability.py`` repeats the measurement).
- ``"median"``: the ratio of the two medians (recorded beside the score in every result as
  ``median_ratio_vs_eager`` / ``median_ratio_vs_inductor``).
- ``"p10"``: the ratio of the two 10th percentiles: host interference only ever adds time, so the
  lower tail is the subgraph's own cost under the least disturbed conditions (``timeit``'s reasoning
  for reading the minimum, without resting on one sample)."""


class Timing(_Model):
    """Median, quartiles and 10th percentile of one variant's per-call time (microseconds)."""

    median_us: float
    q1_us: float
    q3_us: float
    n: int = Field(description="timed calls")
    kernel_median_us: float | None = Field(None, description="CUDA event time; None on CPU")
    graph_median_us: float | None = Field(
        None, description="device time of a CUDA-graph replay of one call (no host in the loop); None on CPU or "
                          "when the call could not be captured; not used by the score")
    p10_us: float | None = Field(
        None, description="10th percentile of the end-to-end samples; the score's time when "
                          "config.time_statistic is 'p10'; None in results from before it was recorded")
    graph_replays: int | None = Field(
        None, description="CUDA-graph replays kept (not dropped by the guard); graph_median_us is their median, "
                          "or None when fewer than 10 were kept")
    graph_dropped: int | None = Field(
        None, description="CUDA-graph replays dropped because the host's submission outlasted the guard "
                          "(the GPU's spin before the start event); None where not measured")
    source: Literal["measured", "cached"] = Field(
        "measured",
        description="'cached': from the baseline cache, rescaled by this run's eager time",
    )


class ErrorStats(_Model):
    """Largest errors against the eager reference over all input draws and outputs."""

    min_correct_t: int | None = Field(description="smallest tolerance level t that passes; None: none")
    max_abs: float
    max_rel: float


class RuleResult(_Model):
    """How one rule of the pass fared on a subgraph."""

    rule: str
    matches: int
    diagnostic: str | None = Field(None, description="why the pattern matched nothing")
    notes: list[str] = Field([], description="what the rewrite did that the author should know (a dropped in-place write)")
    sites: list[str] = Field([], description="where it matched: 'graph node (model file:line)' per match, at most 20")


class KernelTime(_Model):
    """One profiler event of a variant, per call."""

    name: str
    kind: Literal["kernel", "aten", "op", "framework"] = Field(
        description="'kernel': Inductor-generated (on CUDA: any device kernel); 'aten': an ATen operator "
                    "(extern call, fallback); 'op': another registered operator; 'framework': Dynamo/AOT/wrapper overhead"
    )
    calls_per_run: float
    us_per_run: float = Field(description="device self time on CUDA, self CPU time on the CPU (microseconds per call)")


class VariantProfile(_Model):
    """Where one variant's time goes (torch.profiler over a few calls)."""

    kernels: list[KernelTime] = Field(description="the events with the most time, descending")
    total_us: float = Field(description="per call, summed over every event with time (not only those listed)")
    kernel_us: float = Field(0.0, description="the part of total_us spent in events of kind 'kernel'")
    events: int = Field(0, description="how many events had time")
    runs: int = Field(description="profiled calls")


class SubgraphProfile(_Model):
    """Profiles of default Inductor and of the candidate on one subgraph (EvalConfig.profile)."""

    time: Literal["device", "self_cpu"] = Field(description="what us_per_run measures")
    inductor: VariantProfile | None = Field(None, description="default Inductor (the baseline compiler)")
    candidate: VariantProfile | None = Field(None, description="pass + Inductor; None when it did not run cleanly")
    error: str | None = Field(None, description="why a profile is missing")


class DrawInfo(_Model):
    """One correctness draw the candidate (and default Inductor) was checked on (SCORING.md,
    "The inputs a candidate is checked on")."""

    label: str = Field(description="'narrow' (GraphNet's, a fifth of the recorded spread), 'spread' (the recorded "
                                   "spread), 'wide' (three times it, lowered where eager's outputs stop being finite)")
    seed: int
    spread: float = Field(description="factor on the recorded std of floating-point inputs")
    int_ranges: list[list[int]] = Field([], description="[argument index, low, high]: integer inputs drawn over this "
                                                        "range instead of the recorded one")
    bool_p: float | None = Field(None, description="probability of True of boolean inputs (None: GraphNet's rule)")


class HeldoutInfo(_Model):
    """The held-out shapes a candidate was checked on, or why there were none."""

    sizes: list[int] | None = Field(description="the sizes grown by one (1 to 2) in every input; None: no size can change")
    shapes: list[list[int]] | None = Field(None, description="the first input shapes after growing")
    min_correct_t: int | None = Field(None, description="the candidate's level there")
    reason: str | None = Field(None, description="why no held-out shape was checked")


class SubgraphResult(_Model):
    """Everything measured for one subgraph."""

    index: int
    name: str
    source: str
    dtypes: list[str]
    status: Status = Field(description="'correct' if correct at t=-5, else its failure class")
    failure_class: FailureClass | None = Field(
        None, description="class applied at levels where it is not correct; None if correct everywhere"
    )
    message: str | None = Field(None, description="one-paragraph explanation of a failure")
    integrity_rule: str | None = Field(None, description="the integrity rule that fired (failure_class 'integrity')")
    traceback: str | None = Field(None, description="trimmed traceback pointing into the pass file")
    matches: int = 0
    rules: list[RuleResult] = []
    candidate_error: ErrorStats | None = None
    inductor_error: ErrorStats | None = Field(None, description="default Inductor vs eager (the compiler's own error)")
    low_signal: bool = Field(False, description="reference outputs did not change across input draws")
    degenerate_inputs: list[str] = Field([], description="arguments recorded with std 0, drawn with the fallback std")
    times: dict[str, Timing] = Field({}, description="'eager', 'inductor', 'candidate'")
    speedup_vs_eager: float | None = None
    speedup_vs_inductor: float | None = None
    paired_speedup_vs_eager: float | None = Field(
        None, description="median over the timed rounds of eager time / candidate time (one interleaved "
                          "measurement): the score's speedup_vs_eager under the default time_statistic 'paired'; "
                          "None where the candidate was not timed (compile, runtime, integrity, timeout)")
    paired_speedup_vs_inductor: float | None = Field(
        None, description="the same against default Inductor; None where Inductor's time came from the cache")
    median_ratio_vs_eager: float | None = Field(
        None, description="eager median / candidate median (the ratio of medians, recorded beside the score)")
    median_ratio_vs_inductor: float | None = Field(None, description="the same against default Inductor")
    inductor_speedup_vs_eager: float | None = Field(
        None, description="default Inductor's own speedup against eager, by the same estimator as the score "
                          "(SCORING.md: Inductor is scored like a candidate); None where either was not timed here")
    wall_s: float = 0.0
    phase_s: dict[str, float] = Field({}, description=(
        "seconds per worker step for this subgraph: inputs (drawing them), eager (reference runs), inductor "
        "(compiling default Inductor, unless it was compiled before the lease, and its correctness runs), candidate_load, "
        "candidate_rewrite, candidate_inductor (compiling the rewritten graph; absent where it was compiled before the "
        "lease: see before_lease_s), candidate_compiled/candidate_run, correctness, "
        "timing (all variants, interleaved), heldout_shape (recompile and check on held-out shapes)"))
    before_lease_s: dict[str, float] = Field({}, description=(
        "seconds of this subgraph's steps done before the device lease, not in phase_s: inductor and candidate "
        "(compiling default Inductor and the candidate, tools/compile_ahead); empty where everything ran under it"))
    compiles_in_lease: int | None = Field(None, description=(
        "graphs Dynamo compiled under the device lease for this subgraph's default Inductor and candidate, where "
        "they were compiled before it (0: none; a held-out shape other than the one predicted, a graph break); "
        "None where everything was compiled under the lease"))
    timing_stop: dict[str, Any] | None = Field(None, description=(
        "why the timed rounds ended (tools/measure/timing.time_interleaved's stop_out): reason (variant_ci, paired_ci, "
        "budget, max_calls, calls), rounds run (check rounds included), attempts, the widest pair's relative "
        "95% CI half-width of the median per-round ratio (paired_ci), seconds of rounds; where the timing step's "
        "seconds went: warmup_s (warm-up calls), graph_s (CUDA-graph replays), inputs_s (the secret timed draws and "
        "their eager reference), checks_s (integrity checks after the calls of check rounds, inside seconds), after_s "
        "(re-runs through eager and a fresh draw after timing)"))
    profile: SubgraphProfile | None = Field(None, description="kernel tables, when the evaluation was profiled")
    draws: list[DrawInfo] = Field([], description="the correctness draws (empty in results from before they were recorded)")
    heldout: HeldoutInfo | None = Field(None, description="the held-out shapes (None where the candidate was not checked there)")


class TaskScores(_Model):
    """SCORING.md scores of one task against one baseline."""

    baseline: Literal["eager", "inductor"]
    es: dict[int, float] = Field(description="ES(t) per tolerance level t")
    s: dict[int, float] = Field(description="S_t per tolerance level t")
    aggregated: float = Field(description="AS")
    correct_at_minus5: float
    geomean_speedup_correct: float | None
    fast_1: float


class EvalConfig(_Model):
    """The options an evaluation ran with (recorded so a result can be reproduced)."""

    device: str
    baseline: Literal["eager", "inductor"] = "eager"
    draws: int = 3
    seed: int = 0
    degenerate_std: float = 1.0
    slowdown_penalty: float = 0.0
    failure_penalty: float = 0.1
    timeout_s: float = 300.0
    timing_budget_s: float = 0.5
    time_statistic: Literal["paired", "median", "p10"] = Field(
        "median", description="how speedups were estimated from the end-to-end samples: 'paired' (median of "
                              "per-round ratios, SCORING.md's and the default of new evaluations), 'median' "
                              "(ratio of medians; what results without this field used) or 'p10'")
    integrity_mode: Literal["permissive", "strict"] = "permissive"
    static_checks: bool = True
    sandbox: bool = True
    profile: bool = Field(False, description="kernel tables of Inductor and the candidate were recorded")


def inductor_correct_at_headline(sg: SubgraphResult) -> bool:
    """Whether default Inductor's outputs of one subgraph are correct at t = -5 (the level that
    decides ``SubgraphResult.status``; ``tools/measure/correctness.py``, ``HEADLINE_LEVEL``)."""
    t = sg.inductor_error.min_correct_t if sg.inductor_error is not None else None
    return t is not None and t <= -5


def headline_regressions(subgraphs: list[SubgraphResult]) -> list[int]:
    """Indices of the subgraphs that fail t = -5 where default Inductor is correct there."""
    return [sg.index for sg in subgraphs if sg.status != "correct" and inductor_correct_at_headline(sg)]


class EvalResult(_Model):
    """The result of evaluating one pass on one task."""

    schema_version: str = SCHEMA_VERSION
    task_id: str
    task_path: str
    pass_path: str
    pass_sha256: str
    config: EvalConfig
    torch_version: str
    device_name: str
    subgraphs: list[SubgraphResult]
    scores: TaskScores = Field(description="against config.baseline")
    other_scores: TaskScores | None = Field(None, description="against the other baseline, where timed")
    inductor_scores: TaskScores | None = Field(
        None, description="default Inductor scored as a candidate against eager: its speedups from the same "
                          "timings, its own correctness (SCORING.md, 'Comparing with Inductor'); where timed")
    wall_s: float
    worker_peak_rss_mb: float | None = Field(None, description="peak resident memory of the candidate process (MiB, VmHWM read from outside it)")
    sandbox: list[str] = Field([], description="the confinement the worker ran under, as applied")
    warnings: list[str] = []

    def as_against(self, baseline: str) -> float | None:
        """The candidate's AS against ``baseline`` ("eager" or "inductor", from ``scores`` or
        ``other_scores``), None where not timed against it."""
        for sc in (self.scores, self.other_scores):
            if sc is not None and sc.baseline == baseline:
                return sc.aggregated
        return None

    def as_vs_eager(self) -> float | None:
        """The candidate's AS against eager, None where not timed against it."""
        return self.as_against("eager")

    def ratio_to_inductor(self) -> float | None:
        """``AS / AS(Inductor)``, both against eager from this evaluation's timings, each with its own
        correctness (SCORING.md, "Comparing with Inductor"): the paper's comparison of a pass with
        default Inductor. None where either AS is missing or Inductor's is 0."""
        mine = self.as_vs_eager()
        ind = self.inductor_scores.aggregated if self.inductor_scores is not None else None
        return mine / ind if mine is not None and ind else None

    def regressions(self) -> list[int]:
        """Indices of the subgraphs the candidate fails at the headline level t = -5 where default
        Inductor's own outputs are correct there: what the pass broke, as opposed to the rounding
        it inherits from the compiler. Empty where nothing regressed."""
        return headline_regressions(self.subgraphs)
