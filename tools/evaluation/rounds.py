"""Paired timed rounds across processes, timed and watched from outside (the referee's side).

Each round times one *window* of every variant in a rotating order, each variant in a process
of its own: eager in the clean process that holds the references, default Inductor in a second
clean process, the candidate in its own (:mod:`.windows` says what a window is). A window's time
is the referee's clock from sending ``go`` to reading ``done``, less the measured cost of one
request round trip to the clean process, divided by the window's calls; the speedup is the
median over rounds of the per-round ratio (``shared/docs/SCORING.md``).

**The clock.** On a GPU, and on the CPU with several threads, a window's time is the referee's
wall clock. On the CPU with one thread (the default), it is the CPU time the variant's process
spent in the window, read from its CPU clock (:mod:`.observe`): the same work, without the time
the OS gave to other processes. On a shared machine a window that is preempted halfway is
otherwise twice as long, and with a few rounds one such window moves a median; CPU time cannot
be faked from inside the process (it counts every thread the process has; other processes are
``child_process``, and ``parallel_work`` holds the window's CPU time to its wall time).

Why one process per variant, and one call count for all: a window that follows another window of
its own process starts with that process's memory in the caches, one that follows another process
does not, and a window's prepared inputs take more of the caches the more calls it has. Measured
on a 2-core CPU with default Inductor timed under two names (b511 ``graphs/3``, three rounds of
1 s each): with eager and Inductor sharing a process and each variant sized on its own, the
"candidate" copy measured 0.81-0.86 of itself; with one count for all, 0.94-0.98; with a process
per variant, 0.99-1.00.

Around every candidate window the referee reads the candidate's CPU time from the OS
(:mod:`.observe`) and checks that the candidate did its work inside its windows:

* in a window it may use at most its threads' worth of CPU (``parallel_work``);
* between windows, and while preparing inputs and writing one call's outputs, it may use no more
  than the clean process needs for the same steps (``work_outside_window``): work moved out of
  the window (computed while inputs were "prepared", deferred until outputs were asked for, done
  by a thread between rounds) shows there;
* it may leave no process of its own running (``child_process``);
* on a GPU, a probe kernel run by the clean process right after each window must not wait for
  work the candidate left queued (``deferred_device_work``);
* every call's outputs are handed over after each window, and one call, chosen only then, must
  be right for its secret inputs, compared in the clean process (``timed_output_mismatch``): a
  call not computed in the window has to be computed while handing over, which shows as work
  outside the window.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from ..integrity.rules import Breach
from ..measure.timing import TimingConfig, _stats, median_ci_halfwidth, paired_ratio_ci
from .steps import paired_speedups
from .child import Child, ChildFailed
from .serve import DONE

#: A candidate window may use this much more CPU than its wall time allows its threads (clock reads
#: bracket the window by a few microseconds; the interpreter wakes up), plus :data:`WINDOW_CPU_SLACK_NS`.
WINDOW_CPU_MARGIN = 1.15
WINDOW_CPU_SLACK_NS = 500_000
#: Work outside the windows beyond what the clean processes need for the same steps, as a share
#: of the candidate's own timed work, that is flagged (plus :data:`OUTSIDE_SLACK_NS` in all and
#: :data:`OUTSIDE_SLACK_PER_WINDOW_NS` per window).
OUTSIDE_SHARE = 0.10
OUTSIDE_SLACK_NS = 2_000_000
OUTSIDE_SLACK_PER_WINDOW_NS = 50_000
#: The clean processes' cost of a step (the dearer baseline's), scaled by this, is what the
#: candidate may spend on it: the steps are the same copies and writes of the same sizes.
STEP_MARGIN = 1.2
#: A probe after the candidate's windows slower than this many times the probe after the clean
#: process's windows, plus :data:`PROBE_SLACK_NS`, means the candidate left work on the GPU.
PROBE_FACTOR = 2.0
PROBE_SLACK_NS = 50_000
#: Calls in one window at most.
MAX_WINDOW_CALLS = 1000
#: Rounds at least, whatever ``TimingConfig.min_calls`` asks of the calls (a median of fewer
#: per-round ratios rests on too few windows).
MIN_ROUNDS = 5
_GO = b'{"op":"go"}\n'


class TimedBreach(Exception):
    """An outside check failed while timing (carries the :class:`~passagent.tools.integrity.rules.Breach`)."""

    def __init__(self, breach: Breach):
        self.breach = breach
        super().__init__(breach.text())


class TimedCallFailed(Exception):
    """A timed call raised in its process (the reply names the error)."""

    def __init__(self, variant: str, reply: dict[str, Any]):
        self.variant = variant
        self.reply = reply
        super().__init__(f"{variant}: {reply.get('error')}")


@dataclass
class Watch:
    """CPU and wall time (ns) of one process's protocol steps, summed over its windows."""

    windows: int = 0
    calls: int = 0
    window_cpu: int = 0
    window_wall: int = 0
    prepare_cpu: int = 0
    prepare_wall: int = 0
    check_cpu: int = 0
    check_wall: int = 0
    idle_cpu: int = 0
    probes: list[int] = field(default_factory=list)
    _last_end: int | None = None


@dataclass
class RoundsResult:
    """What the rounds measured: per variant, the per-call times (µs) of each recorded round,
    their statistics, the paired speedups, and why the rounds stopped."""

    samples: dict[str, list[float]]
    stats: dict[str, Any]
    paired: dict[str, float]
    stop: dict[str, Any]
    watch: dict[str, dict[str, Any]]


def secret(bits: int = 62) -> int:
    return random.SystemRandom().getrandbits(bits)


class Rounds:
    """The timed rounds of one subgraph.

    Args:
        clean: the clean process that holds the references (spot checks, GPU probes, the request
            round trip are measured on it).
        processes: variant name -> the process that times it (``eager``, ``inductor``: clean
            processes, each its own; ``candidate``: the candidate's), their ``timing`` request made.
        variants: the variant names, in the order of the first round.
        config: the timing budget and stopping rule (``TimingConfig``; ``window_s`` sizes windows).
        device_type: ``cpu`` or ``cuda``.
        deadline: ``time.monotonic()`` by which every request must be answered.
        written: indices of the arguments the graph writes in place (sent with checked outputs).
        threads: CPU threads the candidate may use inside a window.
        established: the candidate's level from its correctness draws; a checked timed call must be
            correct at ``max(established, -5) + 1``.
    """

    def __init__(self, clean: Child, processes: dict[str, Child], variants: list[str], config: TimingConfig,
                 device_type: str, deadline: float, written: list[int], threads: int, established: int | None):
        self.clean = clean
        self.processes = processes
        self.candidate = processes.get("candidate")
        self.variants = variants
        self.config = config
        self.cuda = device_type == "cuda"
        self.deadline = deadline
        self.written = written
        self.threads = max(1, threads)
        self.established = established
        self.watch: dict[str, Watch] = {v: Watch() for v in variants}
        self.overhead_ns = 0
        self.calls: dict[str, int] = {v: 1 for v in variants}

    def _child(self, variant: str) -> Child:
        return self.processes[variant]

    # -- one window ----------------------------------------------------------------------------

    def _on_cpu_clock(self) -> bool:
        """Whether windows are timed by their process's CPU clock (see the module docstring)."""
        return not self.cuda and self.threads == 1 and all(c.observer.precise for c in self.processes.values())

    def window(self, variant: str, check: bool = True) -> int:
        """Run one window of ``variant``; return its time (ns, overhead not subtracted): the wall
        time between ``go`` and ``done``, or on the CPU the process's CPU time in it."""
        child = self._child(variant)
        role = "candidate" if variant == "candidate" else "clean"
        w = self.watch[variant]
        obs = child.observer
        m = self.calls[variant]
        calls = [secret() for _ in range(m)]
        rng = [secret() for _ in range(m)]
        c0, t0 = obs.cpu_ns(), time.perf_counter_ns()
        if w._last_end is not None:
            w.idle_cpu += c0 - w._last_end
        self._ok(variant, child.request({"op": "prepare", "variant": variant, "calls": calls, "rng": rng}, self.deadline))
        c1 = obs.cpu_ns()
        t1 = time.perf_counter_ns()
        try:
            child.channel.send_raw(_GO)
            line = child.channel.recv_line(self.deadline)
        except Exception as exc:  # noqa: BLE001 - the channel's errors become the child's failure
            raise _as_child_failure(child, exc) from None
        t2 = time.perf_counter_ns()
        c2 = obs.cpu_ns()
        if line + b"\n" != DONE:
            import json

            try:
                reply = json.loads(line)
            except ValueError:
                reply = {"error": "an unreadable reply to go"}
            raise TimedCallFailed(variant, reply if isinstance(reply, dict) else {"error": "an unreadable reply to go"})
        if self.cuda:
            p0 = time.perf_counter_ns()
            self._ok("probe", self.clean.request({"op": "probe"}, self.deadline))
            w.probes.append(time.perf_counter_ns() - p0)
        c3, t3 = obs.cpu_ns(), time.perf_counter_ns()
        reply = self._ok(variant, child.request({"op": "check", "written": self.written}, self.deadline))
        c4, t4 = obs.cpu_ns(), time.perf_counter_ns()
        j = random.SystemRandom().randrange(m)  # chosen after every call's outputs were handed over
        w._last_end = c4
        w.windows += 1
        w.calls += m
        w.window_cpu += c2 - c1
        w.window_wall += t2 - t1
        w.prepare_cpu += c1 - c0
        w.prepare_wall += t1 - t0
        w.check_cpu += c4 - c3
        w.check_wall += t4 - t3
        w.idle_cpu += c3 - c2  # the clean process's probe: the candidate should be waiting
        if role == "candidate":
            allowed = self.threads * (t2 - t1) * WINDOW_CPU_MARGIN + WINDOW_CPU_SLACK_NS
            if not self.cuda and obs.precise and c2 - c1 > allowed:
                raise TimedBreach(Breach("parallel_work", f"the candidate used {(c2 - c1) / 1e6:.2f} ms of CPU in a "
                                         f"{(t2 - t1) / 1e6:.2f} ms window: more than its {self.threads} thread(s) can "
                                         f"(work on threads or processes the evaluation does not give it)"))
            if check:
                self._spot(calls[j], rng[j], reply.get("path"), j, m)
        return (c2 - c1) if self._on_cpu_clock() else (t2 - t1)

    def _spot(self, r: int, rng: int, path: Any, call: int, calls: int) -> None:
        if not isinstance(path, str):
            raise TimedBreach(Breach("timed_output_mismatch", "the candidate did not hand over a timed call's outputs"))
        verdict = self._ok("spot", self.clean.request({"op": "spot", "r": r, "rng": rng, "path": path, "call": call,
                                                        "calls": calls, "written": self.written}, self.deadline))
        if verdict.get("breach"):
            b = verdict["breach"]
            raise TimedBreach(Breach(str(b.get("rule")), str(b.get("message"))))
        if verdict.get("mismatch"):
            raise TimedBreach(Breach("timed_output_mismatch", f"a timed call's outputs: {verdict['mismatch']}"))
        c = verdict.get("comparison") or {}
        limit = max(self.established if self.established is not None else -5, -5) + 1
        level = c.get("min_correct_t")
        if level is None or level > limit:
            raise TimedBreach(Breach("timed_output_mismatch", f"a timed call returned wrong values for its inputs (max abs "
                                     f"error {c.get('max_abs')}) although the checked calls were correct"))

    def _ok(self, what: str, reply: dict[str, Any]) -> dict[str, Any]:
        if not reply.get("ok"):
            raise TimedCallFailed(what, reply)
        return reply

    # -- the rounds ----------------------------------------------------------------------------

    def run(self) -> RoundsResult:
        cfg = self.config
        t_start = time.perf_counter()
        nulls = []
        obs = self.clean.observer
        on_cpu = self._on_cpu_clock()
        for _ in range(15):
            c0, t0 = obs.cpu_ns(), time.perf_counter_ns()
            self.clean.request({"op": "null"}, self.deadline)
            nulls.append((obs.cpu_ns() - c0) if on_cpu else (time.perf_counter_ns() - t0))
        self.overhead_ns = int(statistics.median(nulls[3:]))
        if self.candidate is not None:
            self._no_children()
        # Warm-up: one call each (its time sizes the windows), then sized windows for warmup_s.
        # Every variant makes the same number of calls per window: the inputs of a window's calls are
        # prepared before it, so their memory (and what of it the caches still hold) is the same for
        # every variant only at the same count. Sized in two steps (the first call of a window is the
        # slowest, so a one-call window overestimates), so the variants' windows last ``window_s``
        # in geometric mean.
        target = cfg.window_s * 1e9
        for _step in range(2):
            logs = []
            for v in self.variants:
                logs.append(math.log(max(1, self.window(v, check=False) - self.overhead_ns) / self.calls[v]))
            per_call = math.exp(sum(logs) / len(logs))
            m = int(min(MAX_WINDOW_CALLS, max(1, round(target / per_call))))
            self.calls = {v: m for v in self.variants}
        t_warm = time.perf_counter() + cfg.warmup_s
        w = 0
        while w < max(1, cfg.warmup) or time.perf_counter() < t_warm:
            for v in self.variants:
                self.window(v)
            w += 1
        self._reset_watch()
        warmup_s = time.perf_counter() - t_start
        # ``min_calls`` and ``max_calls`` count timed calls of each variant; a round times a window of ``m``.
        m = self.calls[self.variants[0]]
        min_rounds = max(MIN_ROUNDS, math.ceil(cfg.min_calls / m))
        max_rounds = max(min_rounds, math.ceil(cfg.max_calls / m))
        samples: dict[str, list[float]] = {v: [] for v in self.variants}
        t_rounds = time.perf_counter()
        deadline = t_rounds + cfg.budget_s
        rnd = 0
        reason = "budget"
        while True:
            rnd += 1
            shift = rnd % len(self.variants)
            for v in self.variants[shift:] + self.variants[:shift]:
                wall = self.window(v)
                samples[v].append(max(wall - self.overhead_ns, 1) / self.calls[v] / 1000.0)
            n = len(samples[self.variants[0]])
            if n >= max_rounds:
                reason = "max_calls"
                break
            if n < min_rounds:
                continue
            if time.perf_counter() >= deadline:
                reason = "budget"
                break
            if cfg.target_ci is not None:
                if n >= 10 and all(median_ci_halfwidth(samples[v]) <= cfg.target_ci for v in self.variants):
                    reason = "variant_ci"
                    break
                if cfg.paired_ci is not None and len(self.variants) > 1 and n >= 10 and paired_ratio_ci(samples) <= cfg.paired_ci:
                    reason = "paired_ci"
                    break
        seconds = time.perf_counter() - t_rounds
        if self.candidate is not None:
            self._outside_checks()
            self._no_children()
        stats = {v: asdict(_stats(samples[v], None)) for v in self.variants}
        widest = paired_ratio_ci(samples) if len(self.variants) > 1 else math.inf
        stop = {"reason": reason, "rounds": rnd, "attempts": 1, "seconds": round(seconds, 4), "warmup_s": round(warmup_s, 4),
                "observed": self.candidate.observer.describe() if self.candidate is not None else None,
                "clock": "cpu" if self._on_cpu_clock() else "wall",
                "paired_ci": round(widest, 5) if math.isfinite(widest) else None,
                "window_calls": dict(self.calls), "overhead_us": round(self.overhead_ns / 1000, 2)}
        return RoundsResult(samples=samples, stats=stats, paired=paired_speedups(samples), stop=stop,
                            watch={k: _watch_summary(v) for k, v in self.watch.items()})

    def _reset_watch(self) -> None:
        for w in self.watch.values():
            last = w._last_end
            w.__init__()  # type: ignore[misc]
            w._last_end = last

    # -- outside checks ------------------------------------------------------------------------

    def _no_children(self) -> None:
        assert self.candidate is not None
        kids = self.candidate.observer.descendants()
        if kids:
            raise TimedBreach(Breach("child_process", f"the candidate has {len(kids)} process(es) of its own running while "
                                     f"it is timed (they could work beside it, unseen by its clock)"))

    def _outside_checks(self) -> None:
        """Work the candidate did outside its windows, against what the clean processes needed for
        the same steps (CPU time on the CPU; wall time on a GPU, where the work is the device's)."""
        cand = self.watch.get("candidate")
        base = [w for v, w in self.watch.items() if v != "candidate" and w.windows]
        if cand is None or not cand.windows or not base or self.candidate is None or not self.candidate.observer.available:
            return
        kind = "wall" if self.cuda else "cpu"
        # The clean processes' cost of each step, the dearer of the baselines' (the same copies and
        # writes, of the same sizes, in a process of its own).
        prep_c = max(getattr(w, f"prepare_{kind}") / max(w.calls, 1) for w in base)
        check_c = max(getattr(w, f"check_{kind}") / max(w.windows, 1) for w in base)
        excess = {
            "preparing inputs": getattr(cand, f"prepare_{kind}") - STEP_MARGIN * prep_c * cand.calls,
            "handing over outputs": getattr(cand, f"check_{kind}") - STEP_MARGIN * check_c * cand.windows,
            "between windows": cand.idle_cpu if not self.cuda else 0,
        }
        work = cand.window_cpu if not self.cuda else cand.window_wall
        allowed = OUTSIDE_SHARE * work + OUTSIDE_SLACK_NS + OUTSIDE_SLACK_PER_WINDOW_NS * cand.windows
        total = sum(max(0.0, v) for v in excess.values())
        if total > allowed:
            where = max(excess, key=lambda k: excess[k])
            raise TimedBreach(Breach("work_outside_window", f"the candidate did {total / 1e6:.2f} ms of work outside its "
                                     f"timed windows (most while {where}), more than the {allowed / 1e6:.2f} ms allowed: "
                                     f"{OUTSIDE_SHARE:.0%} of its {work / 1e6:.2f} ms timed work; work moved out of the "
                                     f"window is not timed"))
        probes = [p for w in base for p in w.probes]
        if self.cuda and cand.probes and probes:
            mine, theirs = statistics.median(cand.probes), statistics.median(probes)
            if mine > PROBE_FACTOR * theirs + PROBE_SLACK_NS:
                raise TimedBreach(Breach("deferred_device_work", f"a kernel launched right after the candidate's windows "
                                         f"waited {mine / 1e3:.0f} µs (median), {theirs / 1e3:.0f} µs after the baselines': "
                                         f"the candidate left work queued on the GPU when it reported done"))


def _watch_summary(w: Watch) -> dict[str, Any]:
    d = {k: v for k, v in asdict(w).items() if not k.startswith("_") and k != "probes"}
    if w.probes:
        d["probe_median_ns"] = int(statistics.median(w.probes))
    return d


def _as_child_failure(child: Child, exc: Exception) -> ChildFailed:
    from .wire import ChannelClosed, ChannelTimeout

    role = child.launch.role
    if isinstance(exc, ChannelTimeout):
        return ChildFailed("timeout", "no answer within the time limit", role)
    if isinstance(exc, ChannelClosed):
        return ChildFailed("died", child.exit_description(), role)
    return ChildFailed("protocol", str(exc), role)
