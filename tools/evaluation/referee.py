"""One evaluation in the clean room: the referee drives the clean and the candidate process.

For each subgraph of the task (``shared/docs/DESIGN.md``, "Process roles"):

1. the **clean process** computes eager's references on every correctness draw and checks
   default Inductor on them (cached in that process across evaluations of the task);
2. the **candidate process** compiles the candidate (Dynamo, the pass's rewrite, Inductor) and
   runs it on the same draws; each answer crosses as data and the clean process compares it;
3. both are timed in paired rounds (:mod:`.rounds`), the candidate watched from outside;
4. the clean process chooses held-out shapes and their reference; the candidate must be as right
   there.

Each subgraph's outcome is reported as the event the result assembly reads
(:func:`passagent.tools.evaluation.results.subgraph_from_event`), with the failure class of the step a
failure happened in: ``compile`` while the pass loaded or the candidate compiled, ``runtime``
while it ran, ``timeout`` past the per-subgraph limit, ``integrity`` when a rule fired. A
candidate process that dies is replaced for the remaining subgraphs.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any, Callable

from ..measure import physics_floor
from ..measure.correctness import HEADLINE_LEVEL, Comparison, merge
from ..integrity.rules import Breach
from ..process.isolation import WorkerRun, _crash_report
from ..measure.timing import TimingConfig
from .steps import phase_durations, secret_seed
from .child import CLEAN_POOL, STANDBY_POOL, Child, ChildFailed, Launch, new_workdir
from .rounds import Rounds, TimedBreach, TimedCallFailed


class CandidateFailed(Exception):
    """The candidate failed a subgraph: its class, message, traceback and, for integrity, the rule."""

    def __init__(self, failure_class: str, message: str, traceback: str | None = None, rule: str | None = None):
        self.failure_class = failure_class
        self.message = message
        self.traceback = traceback
        self.rule = rule
        super().__init__(message)

    @classmethod
    def integrity(cls, breach: Breach) -> "CandidateFailed":
        return cls("integrity", breach.text(), rule=breach.rule)


def _breach(d: dict[str, Any] | None) -> Breach | None:
    if not d:
        return None
    return Breach(str(d.get("rule")), str(d.get("message")))


def _comparison(d: dict[str, Any]) -> Comparison:
    return Comparison(min_correct_t=d.get("min_correct_t"), max_abs=float(d.get("max_abs") or 0.0),
                      max_rel=float(d.get("max_rel") or 0.0), nonfinite=bool(d.get("nonfinite")),
                      worst_output=d.get("worst_output"))


@dataclasses.dataclass
class Plan:
    """What the referee needs to run one evaluation (built by :mod:`passagent.tools.evaluation.evaluate`).

    Attributes:
        task: the loaded task. pass_path, digest, pass_files: the pass.
        clean_launch / candidate_launch: how each role's process starts (``make_launch(role, workdir)``).
        settings: seed, draws, degenerate_std (sent to both roles).
        timing: the timing configuration. need_inductor: per subgraph index, whether default
            Inductor is timed. timeout_s: per subgraph. threads: CPU threads of a candidate window.
        integrity_mode, heldout_shapes, standby, profile, profile_calls: as in ``EvalOptions``.
        cpu_seconds: the candidate's CPU-time limit.
        compile_before_lease: compile the candidate and default Inductor of every subgraph before
            ``on_ready`` (the device lease), running nothing (:mod:`passagent.tools.process.compile_ahead`);
            their first runs, with everything else on the device, come after it.
        on_ready: called with the seconds of start-up once both processes are ready (the lease).
        on_device_done: called after the last device step.
        on_phases: called with each subgraph's seconds per step once it is done (the lease's record).
        seed_cache: called before the candidate compiles a subgraph, after default Inductor was
            compiled for it (:func:`.child.seed_candidate_cache`).
    """

    task: Any
    pass_path: Path
    digest: str
    pass_files: list[str]
    make_launch: Callable[[str, Path], Launch]
    settings: dict[str, Any]
    timing: TimingConfig
    need_inductor: dict[str, bool]
    timeout_s: float
    threads: int
    integrity_mode: str = "permissive"
    heldout_shapes: bool = True
    standby: bool = False
    profile: bool = False
    profile_calls: int = 5
    cpu_seconds: int | None = None
    compile_before_lease: bool = False
    on_ready: Callable[[dict[str, float]], object] | None = None
    on_device_done: Callable[[], None] | None = None
    on_phases: Callable[[dict[str, float]], None] | None = None
    seed_cache: Callable[[], Any] | None = None


class Referee:
    """Runs one :class:`Plan`; :meth:`run` returns the :class:`~passagent.tools.process.isolation.WorkerRun`."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.run_: WorkerRun = WorkerRun({}, {}, {})
        self.clean: Child | None = None       # the references, comparisons and eager's windows
        self.baseline: Child | None = None    # default Inductor: compiled, checked and timed
        self.candidate: Child | None = None
        self.keys: dict[str, str] = {}
        self.pass_loaded = False
        self.load_failure: CandidateFailed | None = None
        self.ahead_failures: dict[int, tuple[ChildFailed, str | None, str | None]] = {}  # subgraph -> a death compiling it ahead
        self.before_lease: dict[str, float] = {}
        self.ahead_seconds: dict[int, dict[str, float]] = {}  # subgraph -> seconds of its compiles before the lease
        self.heldout_seeds: dict[int, int] = {}  # subgraph -> the secret seed of its held-out shapes, planned ahead
        self.leased = False
        self.device_type = "cpu"

    # -- processes -------------------------------------------------------------------------------

    def _start_clean(self, kind: str) -> Child:
        """A clean process for ``kind`` (``references`` or ``inductor``): one kept from an earlier
        evaluation with the same launch settings where one is alive (it loads this task if it holds
        another; what it holds about a task it keeps until then), else a new one."""
        p = self.plan
        workdir = new_workdir("clean")
        launch = p.make_launch("clean", workdir)
        self.device_type = launch.device_type
        key = f"{kind}|{launch.key(workdir)}"
        self.keys[kind] = key
        child = CLEAN_POOL.take(key)
        if child is not None:
            import shutil

            shutil.rmtree(workdir, ignore_errors=True)
            return child
        return Child.start(launch, workdir)

    def _task_key(self) -> str:
        p = self.plan
        return "|".join([str(p.task.path), *(sg.digest for sg in p.task.subgraphs), repr(sorted(p.settings.items()))])

    def _start_candidate(self, allow_standby: bool = True) -> Child:
        p = self.plan
        workdir = new_workdir("candidate")
        launch = p.make_launch("candidate", workdir)
        if allow_standby and p.standby:
            child = STANDBY_POOL.take(launch.key(workdir))
            if child is not None:
                import shutil

                shutil.rmtree(workdir, ignore_errors=True)
                child.prestarted = True  # type: ignore[attr-defined]
                return child
        return Child.start(launch, workdir)

    def _ready(self, child: Child, role: str) -> None:
        p = self.plan
        info = child.wait_ready()
        if role == "candidate":
            self.run_.sandbox = list(info.get("sandbox") or [])
            if getattr(child, "prestarted", False):
                self.run_.sandbox.append("pre-started: confined before its imports, then handed this evaluation")
        if role in ("references", "inductor") and getattr(child, "task_key", None) != self._task_key():
            self._request(child, {"op": "task", "path": str(p.task.path), "id": p.task.id, **p.settings}, None)
            child.task_key = self._task_key()  # type: ignore[attr-defined]
        if role == "candidate":
            self._request(child, {"op": "task", "path": str(p.task.path), "id": p.task.id, **p.settings,
                                  "cpu_seconds": p.cpu_seconds}, None)

    def _request(self, child: Child, msg: dict[str, Any], deadline: float | None) -> dict[str, Any]:
        return child.request(msg, deadline if deadline is not None else time.monotonic() + max(self.plan.timeout_s, 60.0))

    def _load_pass(self) -> None:
        p = self.plan
        assert self.candidate is not None
        r = self._request(self.candidate, {"op": "load_pass", "path": str(p.pass_path), "digest": p.digest,
                                           "files": p.pass_files, "integrity_mode": p.integrity_mode}, None)
        if not r.get("ok"):
            self.load_failure = CandidateFailed("compile", f"the pass failed to load: {r.get('error')}", r.get("traceback"))
        elif (b := _breach(r.get("breach"))) is not None:
            self.load_failure = CandidateFailed.integrity(b)
        elif r.get("load_error"):
            self.load_failure = CandidateFailed("compile", f"the pass failed to load: {r['load_error']}", r.get("traceback") or None)
        self.pass_loaded = True

    def _note_candidate_memory(self) -> None:
        """Record the candidate process's peak resident memory, read from outside it, before it ends."""
        if self.candidate is not None:
            self.run_.max_rss_kb = max(self.run_.max_rss_kb, self.candidate.observer.peak_rss_kb())

    def _replace_candidate(self) -> None:
        if self.candidate is not None:
            self._note_candidate_memory()
            self.candidate.kill()
        self.candidate = self._start_candidate(allow_standby=False)
        self._ready(self.candidate, "candidate")
        self._load_pass()

    # -- the evaluation ---------------------------------------------------------------------------

    def run(self) -> WorkerRun:
        p = self.plan
        t0 = time.perf_counter()
        try:
            self.clean = self._start_clean("references")
            if any(p.need_inductor.get(str(i), True) for i in range(len(p.task.subgraphs))):
                self.baseline = self._start_clean("inductor")
            self.candidate = self._start_candidate()
            self._ready(self.clean, "references")
            if self.baseline is not None:
                self._ready(self.baseline, "inductor")
            self._ready(self.candidate, "candidate")
            self._load_pass()
            self.before_lease = {"start_up": round(time.perf_counter() - t0, 4)}
            if p.compile_before_lease and self.load_failure is None:
                t1 = time.perf_counter()
                self._compile_ahead()
                self.before_lease["compile"] = round(time.perf_counter() - t1, 4)
            for i, _sg in enumerate(p.task.subgraphs):
                if self.load_failure is not None:
                    # Nothing of the pass can run: every subgraph fails at once, nothing is compiled or timed.
                    f = self.load_failure
                    self.run_.results[i] = {"failure_class": f.failure_class, "message": f.message, "matches": 0, "rules": [],
                                            **({"traceback": f.traceback} if f.traceback else {}),
                                            **({"integrity_rule": f.rule} if f.rule else {})}
                    continue
                if i in self.ahead_failures:
                    self._ahead_failure(i)
                    continue
                self._take_lease()
                self._subgraph(i)
            if self.leased and p.on_device_done:
                p.on_device_done()
        finally:
            self._finish()
        return self.run_

    def _take_lease(self) -> None:
        """Before the first step on the device: the lease (``Plan.on_ready``), the graphs compiled
        ahead allowed to run, the device's floor. Nothing of this happens for an evaluation that
        failed before it needed the device (a pass that did not load, a crash compiling)."""
        if self.leased:
            return
        p = self.plan
        self.leased = True
        if p.on_ready:
            p.on_ready(self.before_lease)
        for child in (self.candidate, self.baseline):
            if child is not None and p.compile_before_lease:
                self._request(child, {"op": "open_lease"}, None)
        self._floor()

    def _ahead_failure(self, i: int) -> None:
        p = self.plan
        exc, phase, tail = self.ahead_failures.pop(i)
        step = phase or "candidate_load"
        if exc.kind == "timeout":
            cls, msg = "timeout", (f"exceeded the {p.timeout_s:.0f} s limit per subgraph during step '{step}' (compiling "
                                   f"before the device lease); the candidate process was killed")
        else:
            cls = "compile" if step in ("candidate_rewrite", "candidate_inductor", "candidate_load") else "runtime"
            msg = f"the candidate process died ({exc.detail}) while {step.replace('_', ' ')}, before the device lease"
        self.run_.failed[i] = (cls, msg, tail)

    def _compile_ahead(self) -> None:
        """Compile every subgraph's candidate (at its held-out shapes, planned now, too) and default
        Inductor without running them. A candidate process that dies compiling a held-out shape
        is replaced and that subgraph compiled again without it (it is then measured, and fails
        the held-out step under the lease, as it would have compiled there); one that dies
        compiling a measured shape is blamed on that subgraph's compile, as at its first run. A
        replacement process compiles the subgraphs before it again (from Inductor's cache)."""
        from .draws import DrawSpec

        p = self.plan
        draw = DrawSpec(seed=int(p.settings["seed"])).to_json()
        plans: dict[int, Any] = {}
        for i in range(len(p.task.subgraphs)):
            seconds = self.ahead_seconds.setdefault(i, {})
            if self.baseline is not None and p.need_inductor.get(str(i), True):
                t0 = time.perf_counter()
                self._request(self.baseline, {"op": "precompile", "sg": i}, time.monotonic() + p.timeout_s)
                seconds["inductor"] = round(time.perf_counter() - t0, 4)
            if p.heldout_shapes:
                # Planned on fake tensors (no device); the amounts are secret, drawn from a seed chosen here.
                assert self.clean is not None, "the clean process starts before any compile ahead"
                self.heldout_seeds[i] = secret_seed()
                plans[i] = self._request(self.clean, {"op": "heldout_plan", "sg": i, "seed": self.heldout_seeds[i]},
                                         time.monotonic() + p.timeout_s).get("growth")
        if p.seed_cache is not None:
            p.seed_cache()
        todo = list(range(len(p.task.subgraphs)))
        done: list[int] = []
        for _attempt in range(2 * len(todo) + 1):
            if not todo:
                return
            i = todo[0]
            try:
                t0 = time.perf_counter()
                self._request(self.candidate, {"op": "precompile", "sg": i, "draw": draw, "heldout": plans.get(i)},  # type: ignore[arg-type]
                              time.monotonic() + p.timeout_s)
                self.ahead_seconds[i]["candidate"] = round(time.perf_counter() - t0, 4)
                done.append(todo.pop(0))
                continue
            except ChildFailed as exc:
                if exc.role != "candidate":
                    raise
                if plans.get(i):
                    plans[i] = None  # again without the held-out shapes
                else:
                    tail = _crash_report(self.candidate.log_path, p.pass_files) if self.candidate is not None else None
                    self.ahead_failures[i] = (exc, self._compile_phase(), tail)
                    todo.pop(0)
                self._replace_candidate()
                todo = done + todo  # the new process has compiled nothing yet
                done = []

    def _finish(self) -> None:
        p = self.plan
        if self.candidate is not None:
            self._note_candidate_memory()
            self.candidate.kill()
            import shutil

            shutil.rmtree(self.candidate.workdir, ignore_errors=True)
        for kind, child in (("references", self.clean), ("inductor", self.baseline)):
            if child is not None:
                if child.alive():
                    CLEAN_POOL.put(self.keys[kind], child)
                else:
                    child.kill()
        if p.standby:
            workdir = new_workdir("candidate")
            launch = p.make_launch("candidate", workdir)
            STANDBY_POOL.put(launch.key(workdir), Child.start(launch, workdir))

    def _subgraph(self, i: int) -> None:
        p = self.plan
        assert self.clean is not None
        t_start = time.perf_counter()
        marks: list[tuple[str, float]] = [("references", t_start)]
        need_inductor = p.need_inductor.get(str(i), True) and self.baseline is not None
        try:
            info = self._request(self.clean, {"op": "subgraph", "sg": i, "inductor": False}, time.monotonic() + 3 * p.timeout_s)
            if info.get("ok") and need_inductor:
                assert self.baseline is not None
                b = self._request(self.baseline, {"op": "subgraph", "sg": i, "inductor": True}, time.monotonic() + 3 * p.timeout_s)
                info.update({k: b.get(k) for k in ("inductor_error", "inductor_failure", "has_inductor")})
        except ChildFailed as exc:
            # A clean process runs nothing but the task: its death here is the task's (eager ran out of memory).
            self._restart_clean()
            self.run_.task_errors[i] = {"subgraph": i, "message": f"a clean process died computing eager's references or "
                                                                  f"default Inductor ({exc.detail})"}
            return
        if info.get("task_error") or not info.get("ok"):
            self.run_.task_errors[i] = {"subgraph": i, "message": info.get("task_error") or info.get("error"),
                                        "traceback": info.get("traceback")}
            return
        out: dict[str, Any] = {
            "degenerate_inputs": info.get("degenerate_inputs", []), "matches": 0, "rules": [],
            "low_signal": bool(info.get("low_signal")), "draws": info["draws"],
        }
        if info.get("inductor_failure"):
            out["inductor_failure"] = info["inductor_failure"]
        elif info.get("inductor_error") is not None:
            out["inductor_error"] = info["inductor_error"]
        deadline = time.monotonic() + p.timeout_s

        def mark(step: str) -> None:
            marks.append((step, time.perf_counter()))

        established: int | None = None
        timed_candidate = False
        try:
            if self.load_failure is not None:
                raise self.load_failure
            established = self._correctness(i, info, out, deadline, mark)
            timed_candidate = True
        except CandidateFailed as exc:
            self._fail(out, exc)
        except ChildFailed as exc:
            if exc.role == "clean":
                raise
            self._candidate_died(i, exc, marks[-1][0])
            return
        mark("timing")
        try:
            self._time(i, info, out, timed_candidate, established, deadline)
            if timed_candidate and out.get("failure_class") != "integrity" and p.heldout_shapes:
                mark("heldout_shape")
                self._heldout(i, info, out, established, deadline)
        except CandidateFailed as exc:
            self._fail(out, exc)
        except ChildFailed as exc:
            if exc.role == "clean":
                raise
            if exc.kind == "timeout":
                self._candidate_died(i, exc, marks[-1][0])
                return
            self._fail(out, CandidateFailed("runtime", f"the candidate process died ({exc.detail}) during step '{marks[-1][0]}'",
                                            _crash_report(self.candidate.log_path, p.pass_files) if self.candidate else None))
            self._replace_candidate()
        if p.profile:
            self._profile(i, timed="candidate" in out.get("times", {}), failure=out.get("failure_class"))
        try:
            if self.candidate is not None and self.candidate.alive():
                r = self._request(self.candidate, {"op": "end_subgraph", "sg": i}, None)
                if i in self.ahead_seconds and isinstance(r.get("compiles_in_lease"), int):
                    out["compiles_in_lease"] = r["compiles_in_lease"]
        except ChildFailed as exc:
            if exc.role == "clean":
                raise
            self._replace_candidate()
        if i in self.ahead_seconds:
            out["before_lease_s"] = self.ahead_seconds[i]
        out["wall_s"] = time.perf_counter() - t_start
        out["phase_s"] = phase_durations(marks, time.perf_counter())
        if p.on_phases:
            p.on_phases(out["phase_s"])
        self.run_.results[i] = out

    def _restart_clean(self) -> None:
        for kind in ("references", "inductor"):
            child = self.clean if kind == "references" else self.baseline
            if child is None:
                continue
            child.kill()
            fresh = self._start_clean(kind)
            self._ready(fresh, kind)
            if kind == "references":
                self.clean = fresh
            else:
                self.baseline = fresh

    def _fail(self, out: dict[str, Any], exc: CandidateFailed) -> None:
        out.update(failure_class=exc.failure_class, message=exc.message)
        if exc.traceback:
            out["traceback"] = exc.traceback
        if exc.rule:
            out["integrity_rule"] = exc.rule
        if exc.failure_class in ("integrity", "compile", "runtime", "timeout"):
            out.get("times", {}).pop("candidate", None)
            out.pop("paired_speedup", None)

    def _compile_phase(self) -> str | None:
        """The compile step the candidate process last said it was in (its ``phase`` file)."""
        if self.candidate is None:
            return None
        try:
            return (self.candidate.workdir / "phase").read_text().strip()[:64] or None
        except OSError:
            return None

    def _candidate_died(self, i: int, exc: ChildFailed, step: str) -> None:
        p = self.plan
        tail = _crash_report(self.candidate.log_path, p.pass_files) if self.candidate is not None else None
        if exc.kind == "timeout":
            cls, msg = "timeout", f"exceeded the {p.timeout_s:.0f} s limit per subgraph during step '{step}'; the candidate process was killed"
        elif step == "candidate_compile" and self._compile_phase() in ("candidate_rewrite", "candidate_inductor"):
            cls, msg = "compile", f"the candidate process died ({exc.detail}) while {(self._compile_phase() or '').replace('_', ' ')}"
        else:
            cls, msg = "runtime", f"the candidate process died ({exc.detail}) during step '{step}'"
        self.run_.failed[i] = (cls, msg, tail)
        self._replace_candidate()

    # -- correctness -------------------------------------------------------------------------------

    def _correctness(self, i: int, info: dict[str, Any], out: dict[str, Any], deadline: float,
                     mark: Callable[[str], None]) -> int | None:
        assert self.candidate is not None and self.clean is not None
        written = list(info["written"])
        comps: list[Comparison] = []
        ahead = "candidate" in self.ahead_seconds.get(i, {})
        if not ahead and self.plan.seed_cache is not None:
            self.plan.seed_cache()
        for k, spec in enumerate(info["draws"]):
            # The first run compiles the candidate, unless it was compiled before the lease.
            mark(("candidate_first_run" if ahead else "candidate_compile") if k == 0 else "candidate_run")
            r = self._request(self.candidate, {"op": "run", "sg": i, "draw": spec, "written": written}, deadline)
            if isinstance(r.get("backend"), dict):
                out["matches"] = int(r["backend"].get("matches", 0))
                out["rules"] = list(r["backend"].get("rules", []))
            if not r.get("ok"):
                raise CandidateFailed("runtime", f"the candidate process failed: {r.get('error')}", r.get("traceback"))
            if r.get("error") is not None:
                if (b := _breach(r.get("breach"))) is not None:
                    raise CandidateFailed.integrity(b)
                phase = r.get("phase")
                what = {"rewrite": "applying the pass", "inductor": "Inductor compiling the rewritten graph"}.get(phase or "", "running the candidate")
                raise CandidateFailed("compile" if phase else "runtime", f"{what} raised {r['error']}", r.get("traceback"))
            backend = r.get("backend") or {}
            if k == 0:
                if int(backend.get("matches", 0)) == 0:
                    detail = "\n".join(f"[{x['rule']}] {x['diagnostic']}" for x in out["rules"] if x.get("diagnostic"))
                    raise CandidateFailed("compile", f"the pass matched nothing in this subgraph.\n{detail}".strip())
                if backend.get("no_change"):
                    raise CandidateFailed.integrity(Breach("no_change", "the graph Inductor compiles is the same with and without "
                                                                        "the pass (it runs the original ops, e.g. under a new name): "
                                                                        "the pass changes nothing"))
                if backend.get("downgrades"):
                    raise CandidateFailed.integrity(Breach("precision_downgrade", "the rewritten graph converts to "
                                                           f"{', '.join(backend['downgrades'])}, which the original graph never uses"))
            if (b := _breach(r.get("breach"))) is not None:
                raise CandidateFailed.integrity(b)
            mark("correctness")
            c = self._request(self.clean, {"op": "compare", "sg": i, "draw": k, "path": r.get("path"), "written": written,
                                           "mutated": r.get("mutated")}, deadline)
            if (b := _breach(c.get("breach"))) is not None:
                raise CandidateFailed.integrity(b)
            if c.get("mismatch"):
                raise CandidateFailed("runtime", f"output mismatch on the {spec.get('label', 'narrow')} draw: {c['mismatch']}")
            comps.append(_comparison(c["comparison"]))
        cmp = merge(comps)
        out["candidate_error"] = {"min_correct_t": cmp.min_correct_t, "max_abs": cmp.max_abs, "max_rel": cmp.max_rel}
        if cmp.nonfinite:
            raise CandidateFailed("runtime", "the candidate produced NaN/Inf where the reference is finite")
        if cmp.min_correct_t is None or cmp.min_correct_t > HEADLINE_LEVEL:
            where = "at no tolerance level" if cmp.min_correct_t is None else f"only from t={cmp.min_correct_t}"
            labels = sorted({d.get("label", "narrow") for d in info["draws"]})
            out.update(failure_class="accuracy", message=f"wrong values: correct {where} (max abs error {cmp.max_abs:.3g}, "
                                                         f"max rel error {cmp.max_rel:.3g}; draws checked: {', '.join(labels)})")
        elif cmp.min_correct_t > -10:
            out["failure_class"] = "accuracy"  # applies only below min_correct_t
        return cmp.min_correct_t

    # -- timing ----------------------------------------------------------------------------------

    def _processes(self, i: int, info: dict[str, Any], with_candidate: bool, deadline: float) -> dict[str, Child]:
        """Variant -> the process that times it, each told the subgraph and the secret pool seed."""
        p = self.plan
        assert self.clean is not None
        procs: dict[str, Child] = {"eager": self.clean}
        if info.get("has_inductor") and p.need_inductor.get(str(i), True) and self.baseline is not None:
            procs["inductor"] = self.baseline
        if with_candidate:
            assert self.candidate is not None
            procs["candidate"] = self.candidate
        pool_seed = secret_seed()
        for child in dict.fromkeys(procs.values()):
            self._request(child, {"op": "timing", "sg": i, "pool_seed": pool_seed}, deadline)
        return procs

    def _device_times(self, procs: dict[str, Child], times: dict[str, Any], budget_s: float, deadline: float) -> None:
        """Each process's device times of its variants (CUDA events, CUDA-graph replays): not
        scored; the candidate's are its own account."""
        children = list(dict.fromkeys(procs.values()))
        for child in children:  # the budget shared: each process replays its own variants
            r = self._request(child, {"op": "device_times", "budget_s": budget_s / len(children)}, deadline)
            for name, extra in (r.get("times") or {}).items():
                if name in times and isinstance(extra, dict):
                    times[name].update({k: v for k, v in extra.items() if k in (
                        "kernel_median_us", "graph_median_us", "graph_replays", "graph_dropped") and (v is None or isinstance(v, (int, float)))})

    def _end_timing(self, procs: dict[str, Child], deadline: float) -> dict[str, Any]:
        reply: dict[str, Any] = {}
        for name, child in procs.items():
            r = self._request(child, {"op": "end_timing"}, deadline)
            if name == "candidate":
                reply = r
        return reply

    def _time(self, i: int, info: dict[str, Any], out: dict[str, Any], timed_candidate: bool, established: int | None,
              deadline: float) -> None:
        p = self.plan
        assert self.clean is not None
        config = p.timing
        if not timed_candidate and config.baseline_only_budget_s is not None:
            config = dataclasses.replace(config, budget_s=min(config.budget_s, config.baseline_only_budget_s))
        procs = self._processes(i, info, timed_candidate, deadline)
        rounds = Rounds(self.clean, procs, list(procs), config, self.device_type, deadline, list(info["written"]), p.threads,
                        established)
        try:
            res = rounds.run()
        except TimedBreach as exc:
            self._end_timing({k: v for k, v in procs.items() if k != "candidate"}, deadline)
            self._baselines_alone(i, info, out, deadline)
            raise CandidateFailed.integrity(exc.breach) from None
        except TimedCallFailed as exc:
            if exc.variant != "candidate":
                raise
            self._end_timing({k: v for k, v in procs.items() if k != "candidate"}, deadline)
            self._baselines_alone(i, info, out, deadline)
            raise CandidateFailed("runtime", f"the candidate raised while being timed: {exc.reply.get('error')}",
                                  exc.reply.get("traceback")) from None
        out["times"] = res.stats
        out["paired_speedup"] = res.paired
        out["timing_stop"] = {**res.stop, "watch": res.watch}
        if self.device_type == "cuda" and config.graph_replay:
            t0 = time.perf_counter()
            self._device_times(procs, out["times"], config.graph_budget_s, deadline)
            out["timing_stop"]["graph_s"] = round(time.perf_counter() - t0, 4)
        r = self._end_timing(procs, deadline)
        if timed_candidate:
            if (b := _breach(r.get("breach"))) is not None:
                raise CandidateFailed.integrity(b)
            reason = self._below_floor(res.stats["candidate"]["median_us"], info)
            if reason:
                raise CandidateFailed.integrity(Breach("physics_floor", f"the candidate's {reason}: faster than the device can be"))

    def _floor(self, fresh: bool = False) -> physics_floor.DeviceFloor:
        """The device's floors, measured by the clean process (once, or again with ``fresh``); the
        lower of every measurement is kept, since load only ever makes a floor higher."""
        assert self.clean is not None
        known = getattr(self.clean, "floor", None)
        if known is not None and not fresh:
            return known
        r = self._request(self.clean, {"op": "floor"}, None)
        floor = physics_floor.DeviceFloor(launch_us=float(r["launch_us"]), bandwidth_gbs=float(r["bandwidth_gbs"]))
        if known is not None:
            floor = physics_floor.DeviceFloor(launch_us=min(known.launch_us, floor.launch_us),
                                              bandwidth_gbs=max(known.bandwidth_gbs, floor.bandwidth_gbs))
        self.clean.floor = floor  # type: ignore[attr-defined]
        return floor

    def _below_floor(self, median_us: float, info: dict[str, Any]) -> str | None:
        """Why the candidate's per-call time is below the device's floor, or None. A floor measured
        while other work loaded the machine is too high, so a time below it is checked against a
        floor measured again now before it is called impossible."""
        args = (int(info.get("written_bytes", 0)),)
        fresh_output = bool(info.get("fresh_output", True))
        reason = physics_floor.below_floor(median_us, self._floor(), *args, writes_fresh_output=fresh_output)
        if reason:
            reason = physics_floor.below_floor(median_us, self._floor(fresh=True), *args, writes_fresh_output=fresh_output)
        return reason

    def _baselines_alone(self, i: int, info: dict[str, Any], out: dict[str, Any], deadline: float) -> None:
        """Time the baselines again without the candidate (its rounds were cut short), so default
        Inductor's row still has a time; nothing here is scored for the candidate."""
        p = self.plan
        config = p.timing
        if config.baseline_only_budget_s is not None:
            config = dataclasses.replace(config, budget_s=min(config.budget_s, config.baseline_only_budget_s))
        try:
            procs = self._processes(i, info, False, deadline)
            assert self.clean is not None
            res = Rounds(self.clean, procs, list(procs), config, self.device_type, deadline, list(info["written"]), p.threads,
                         None).run()
            out["times"] = res.stats
            out["paired_speedup"] = res.paired
            out["timing_stop"] = res.stop
            self._end_timing(procs, deadline)
        except (ChildFailed, TimedCallFailed):
            out["times"] = {}

    # -- held-out shapes ---------------------------------------------------------------------------

    def _heldout(self, i: int, info: dict[str, Any], out: dict[str, Any], established: int | None, deadline: float) -> None:
        assert self.clean is not None and self.candidate is not None
        seed = self.heldout_seeds.pop(i, None) or secret_seed()
        h = self._request(self.clean, {"op": "heldout", "sg": i, "seed": seed}, deadline)
        if not h.get("ok"):
            out["heldout"] = {"sizes": None, "reason": f"the clean process could not choose them: {h.get('error')}"}
            return
        if h.get("growth") is None:
            out["heldout"] = {"sizes": None, "reason": h.get("reason")}
            return
        shapes = h.get("shapes")
        sizes = [int(a) for a, _b in h["growth"]]
        out["heldout"] = {"sizes": sizes, "shapes": shapes}
        written = list(info["written"])
        try:
            r = self._request(self.candidate, {"op": "heldout", "sg": i, "growth": h["growth"], "seed": seed,
                                               "written": written}, deadline)
        except ChildFailed as exc:
            if exc.kind == "timeout" or exc.role == "clean":
                raise
            self._replace_candidate()
            raise CandidateFailed.integrity(Breach("shape_special_case", f"the candidate process died ({exc.detail}) during step "
                                                   f"'heldout_shape', on the held-out shapes {shapes}..., where eager runs")) from None
        if not r.get("ok") or r.get("error") is not None:
            if (b := _breach(r.get("breach"))) is not None:
                raise CandidateFailed.integrity(b)
            raise CandidateFailed.integrity(Breach("shape_special_case", f"the candidate raised on the held-out shapes {shapes}... "
                                                   f"(sizes {sizes} grown), where eager runs: {r.get('error')}"))
        c = self._request(self.clean, {"op": "heldout_compare", "sg": i, "path": r.get("path"), "written": written}, deadline)
        if (b := _breach(c.get("breach"))) is not None:
            raise CandidateFailed.integrity(b)
        if c.get("mismatch"):
            raise CandidateFailed.integrity(Breach("shape_special_case", f"on the held-out shapes {shapes}...: {c['mismatch']}"))
        level = (c.get("comparison") or {}).get("min_correct_t")
        out["heldout"]["min_correct_t"] = level
        if level is None or level > max(established if established is not None else HEADLINE_LEVEL, HEADLINE_LEVEL) + 1:
            raise CandidateFailed.integrity(Breach("shape_special_case", f"correct on the measured shapes but wrong on the held-out "
                                                   f"shapes {shapes}... (max abs error {(c.get('comparison') or {}).get('max_abs')})"))

    # -- profiles ----------------------------------------------------------------------------------

    def _profile(self, i: int, timed: bool, failure: str | None) -> None:
        """Kernel tables of default Inductor (in its clean process) and of the candidate (in its own,
        where it was timed: its own account, like its other device times); a process that dies
        profiling loses only the profile."""
        p = self.plan
        assert self.clean is not None and self.candidate is not None
        event: dict[str, Any] = {"time": "device" if self.device_type == "cuda" else "self_cpu"}
        errors = []
        for name, child in (("inductor", self.baseline), ("candidate", self.candidate if timed else None)):
            if child is None:
                errors.append(f"the candidate was not profiled: it failed ({failure or 'not timed'})" if name == "candidate"
                              else "default Inductor was not compiled in this evaluation")
                continue
            try:
                r = self._request(child, {"op": "profile", "sg": i, "calls": p.profile_calls}, None)
            except ChildFailed as exc:
                if exc.role == "clean":
                    raise
                errors.append(f"profiling the {'candidate' if name == 'candidate' else 'baseline'}: its process "
                              f"{'died' if exc.kind == 'died' else 'stopped answering'} ({exc.detail}); the subgraph's "
                              f"result is unaffected")
                if child is self.candidate:
                    self._replace_candidate()
                continue
            if r.get("table") is not None:
                event[name] = r["table"]
            if r.get("error"):
                errors.append(str(r["error"]))
        if errors:
            event["error"] = "; ".join(errors)
        self.run_.profiles[i] = event
