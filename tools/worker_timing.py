"""The worker's timing step and the integrity checks around it (a mixin of :class:`.worker.Worker`).

For a subgraph whose candidate was checked (or failed before it could be), :meth:`TimingStep._finish`
draws secret inputs and their eager reference, times every variant interleaved
(:func:`.timing.time_interleaved`) with the sampled check rounds' checks after the candidate's
calls, then re-runs a sample of timed calls and a fresh draw through eager, bounds the candidate's
time by the device's floor, and checks correctness on held-out shapes. Every breach ends the
candidate's timing as an ``integrity`` failure.
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import asdict
from typing import Any

import torch

from . import physics_floor
from .correctness import HEADLINE_LEVEL, compare_outputs, flatten_outputs, merge
from .heldout import heldout_inputs
from .inputs import clone_inputs, synthesize_inputs
from .integrity import Breach, check_input_writes, check_not_reused, check_outputs, python_threads
from .strict_runtime import strict_breach
from .tasks import Subgraph
from .timing import time_interleaved
from .tracebacks import trim_traceback
from .worker_calls import (IntegrityAbort, Reference, _describe_error, _make_cache_tag, _reference_call, paired_speedups,
                           phase_durations, reseed, secret_seed, timed_check_rate)


class TimingStep:
    """The timing step of :class:`.worker.Worker` (which provides ``_checked_call``, ``_reference``
    and the worker's state: device, timing config, guards, request, floor, the current subgraph)."""

    def _finish(self, out: dict[str, Any], variants: dict[str, Any], ref: Reference, t_start: float, emit: Any,
                established: int | None = None, backend: Any = None, sg: Subgraph | None = None) -> dict[str, Any]:
        emit("timing")
        # Every candidate that is timed is checked while and after it is timed, whatever its
        # correctness class (a candidate correct only from t = 1 is still scored there).
        checking = "candidate" in variants and established is not None
        t_secret = time.perf_counter()
        if "candidate" in variants:
            # Timed calls get draws the candidate has never seen, from a seed it cannot know;
            # the eager reference for them is computed now, with its own RNG seed per draw, so a
            # graph with random ops is compared with eager under the same generator state.
            rng = random.SystemRandom()
            seeds = [secret_seed() for _ in ref.draws]
            # Drawn on the device itself (its own RNG): on a GPU, the secret draws and their
            # reference took 0.3 s a subgraph of the lease with the draws made on the host (up to
            # 2 s while other evaluations compiled there), for a few microseconds of device work.
            secret = [synthesize_inputs(self._subgraph, 0, seed=s, device=self.device, degenerate_std=self.req["degenerate_std"],
                                        on_device=True) for s in seeds]
            ref = self._reference(ref.eager, secret, seeds=[rng.getrandbits(62) for _ in seeds])
        secret_s = time.perf_counter() - t_secret
        check_s = [0.0]  # seconds inside after_call (the checks of check rounds)
        last_outputs: list[Any] = []
        sampled: list[tuple[int, Any, list[Any]]] = []  # (draw, outputs, args after) of sampled timed calls
        sample_rate = 0.1
        rng = random.SystemRandom()

        def fresh_args(i: int) -> list[Any]:
            # Rotate through the draws: consecutive timed calls see different values, so an
            # answer cached by buffer address or object id is wrong, and caught below. Every
            # variant's round-i call gets the same RNG seed as the reference of its draw.
            k = i % len(ref.draws)
            reseed(ref.seed(k, self.seed))
            return clone_inputs(ref.draws[k])

        def after_call(name: str, i: int, outputs: Any, args: list[Any]) -> None:
            t0 = time.perf_counter()
            try:
                _checks(name, i, outputs, args)
            finally:
                check_s[0] += time.perf_counter() - t0

        check_rate = timed_check_rate(self.device)

        def _checks(name: str, i: int, outputs: Any, args: list[Any]) -> None:
            # Where every round is recorded (check_rate None), the same checks follow every
            # variant's call: what a check leaves in the caches slows the next timed call, so each
            # variant must pay it alike. Where check rounds and their successors are not recorded,
            # nothing a check leaves behind reaches a recorded sample, and only the candidate's
            # calls are checked (only its verdicts count; the process guard sees what its call changed).
            if check_rate is not None and name != "candidate":
                return
            breach = self.process.check_call(grad_enabled=False) if self.process is not None else None
            if breach:
                raise IntegrityAbort(breach)
            if not checking:
                return
            k = i % len(ref.draws)
            if name != "candidate":
                compare_outputs(outputs, ref.outputs[k])
                check_input_writes(ref.draws[k], args, ref.writes[k])
                return
            breach = check_outputs(outputs, args, ref.aliases[k]) or check_not_reused(outputs, last_outputs)
            if breach is None:
                c = compare_outputs(outputs, ref.outputs[k])
                breach, writes = check_input_writes(ref.draws[k], args, ref.writes[k])
                c = merge([c, writes]) if writes is not None else c
                # One level past the checked calls' level, or past the headline level where they
                # were tighter, as after timing and on held-out shapes: a float32 result one unit
                # in the last place off is correct only from t = -5 when the value is large (rtol
                # binds), so an exact candidate whose rounding depends on the data (vectorised
                # loops and their scalar tails) can be exact on the checked draws and t = -5 on a
                # timed one. A cached or stale answer, or a cheaper precision while timed, is off
                # by far more.
                limit = max(established, HEADLINE_LEVEL) + 1  # type: ignore[type-var]
                if breach is None and (c.min_correct_t is None or c.min_correct_t > limit):
                    breach = Breach("timed_output_mismatch", f"timed call {i} returned wrong values for its input "
                                                            f"(max abs error {c.max_abs:.3g}) although the checked calls were correct")
            if breach:
                raise IntegrityAbort(breach)
            if rng.random() < sample_rate or not sampled:
                # Kept for a re-run through eager after timing, on the same inputs and seed.
                sampled.append((k, [o.clone() if isinstance(o, torch.Tensor) else o for o in flatten_outputs(outputs)],
                                clone_inputs(args)))
            last_outputs[:] = [outputs]  # kept alive, so its memory cannot be handed out again

        config = self.timing
        if "candidate" not in variants and config.baseline_only_budget_s is not None:
            # Only the baselines are timed (the candidate failed before timing): their times inform,
            # nothing is scored on them, so they hold the device for less.
            cap = config.baseline_only_budget_s
            config = dataclasses.replace(config, budget_s=min(config.budget_s, cap), graph_budget_s=min(config.graph_budget_s, cap))
        threads_before = python_threads() if checking else set()
        try:
            # The same grad mode as the correctness calls: a different one would fail Dynamo's
            # guards and time a recompiled graph rather than the one that was checked.
            with torch.no_grad():
                compiled_before = len(backend.applications) if backend is not None else 0
                samples: dict[str, list[float]] = {}
                stop: dict[str, Any] = {}
                stats = time_interleaved(variants, fresh_args, device=self.device, config=config, after_call=after_call,
                                         samples_out=samples, check_rate=check_rate, stop_out=stop)
            out["times"] = {name: asdict(s) for name, s in stats.items()}
            out["timing_stop"] = stop
            stop.update(inputs_s=round(secret_s, 4), checks_s=round(check_s[0], 4))
            out["paired_speedup"] = paired_speedups(samples)
            if checking:
                t_after = time.perf_counter()
                breach = self._after_timing(variants["candidate"], ref, established, threads_before, sampled)  # type: ignore[arg-type]
                stop["after_s"] = round(time.perf_counter() - t_after, 4)
                if breach is None and backend is not None and len(backend.applications) > compiled_before:
                    breach = Breach("recompiled_during_timing", "the candidate was recompiled while it was being timed")
                if breach is None and self.floor is not None:
                    reason = physics_floor.below_floor(
                        stats["candidate"].median_us, self.floor, physics_floor.written_bytes(ref.outputs[0], ref.aliases[0]),
                        writes_fresh_output=any(not a for a in ref.aliases[0]))
                    if reason:
                        breach = Breach("physics_floor", f"the candidate's {reason}: faster than the device can be")
                if breach is None and sg is not None and self.req.get("heldout_shapes", True):
                    emit("heldout_shape")
                    # What was measured is reported first: a crash in the held-out step keeps it.
                    self.events.emit("measured", subgraph=self._index, **out)
                    self._heldout = True
                    try:
                        breach = self._heldout_shape(sg, variants["candidate"], ref, established)  # type: ignore[arg-type]
                    finally:
                        self._heldout = False
                if breach is not None:
                    raise IntegrityAbort(breach)
        except IntegrityAbort as exc:
            out.update(failure_class="integrity", integrity_rule=exc.breach.rule, message=exc.breach.text())
            out.setdefault("times", {})
            out["times"].pop("candidate", None)
            out.pop("paired_speedup", None)
        except Exception as exc:
            if "candidate" in variants:
                out.update(failure_class="runtime", message=f"the candidate raised while being timed: {_describe_error(exc)}",
                           traceback=trim_traceback(exc, self.pass_files))
            out["times"] = {}
            out.pop("paired_speedup", None)
        if self.process is not None and self.process.changed_flags:
            out["process_flags_changed"] = sorted(self.process.changed_flags)
        out["wall_s"] = time.perf_counter() - t_start
        out["phase_s"] = phase_durations(self._phase_marks, time.perf_counter())
        self._measured = (variants, ref)
        return out

    def _after_timing(self, candidate: Any, ref: Reference, established: int, threads_before: set[int],
                      sampled: list[tuple[int, list[Any], list[Any]]]) -> Breach | None:
        breach = self.guard.check() or self.process.check()  # type: ignore[union-attr]
        if breach:
            return breach
        if self.device.type == "cuda":
            torch.cuda.synchronize()
        new = python_threads() - threads_before
        if new:
            time.sleep(0.05)  # let a thread that was about to exit do so
            new = python_threads() - threads_before
        if new:
            return Breach("background_thread", f"{len(new)} thread(s) started by the candidate are still running")
        limit = max(established, HEADLINE_LEVEL) + 1
        # A sample of the timed calls, re-run through eager now on the same inputs and RNG seed:
        # their outputs and their in-place writes must agree (the eager run comes after the
        # candidate's, so no reference was in memory while the candidate ran).
        for k, outputs, args_after in sampled:
            args = clone_inputs(ref.draws[k])
            want = _reference_call(ref.eager, args, ref.seed(k, self.seed))
            c = merge([compare_outputs(outputs, want), compare_outputs(args_after, args)])
            if c.min_correct_t is None or c.min_correct_t > limit:
                return Breach("post_timing_mismatch", f"a timed call, re-run through eager after timing, disagrees "
                                                      f"(max abs error {c.max_abs:.3g})")
        # A fresh secret draw after timing, the candidate first, so no reference for it is in memory yet.
        seed = secret_seed()
        fresh = synthesize_inputs(self._subgraph, 0, seed=seed, device=self.device, degenerate_std=self.req["degenerate_std"],
                                  on_device=True)
        cand_args = clone_inputs(fresh)
        cand = self._checked_call(candidate, cand_args, seed)
        want_args = clone_inputs(fresh)
        want = _reference_call(ref.eager, want_args, seed)
        c = merge([compare_outputs(cand, want), compare_outputs(cand_args, want_args)])
        if c.min_correct_t is None or c.min_correct_t > limit:
            return Breach("post_timing_mismatch", f"after timing, a fresh input gave wrong values (max abs error {c.max_abs:.3g})")
        return None

    def _heldout_shape(self, sg: Subgraph, candidate: Any, ref: Reference, established: int) -> Breach | None:
        """Correctness on shapes no checked or timed call used, where the graph allows them.

        Every size eager accepts grown is grown (:mod:`.heldout`); the candidate, recompiled for
        the new shapes under the same pass-digest cache tag as its first compile (so it is never
        served another pass's compiled graph), must be as correct there as on the measured
        shapes. Raising there fails too: a pass may specialise its fast path, but must not break
        the graph elsewhere.
        """
        seed = secret_seed()
        want: dict[str, Any] = {}

        def accepts(inputs: list[Any]) -> bool:
            args = clone_inputs(inputs)
            want["outputs"], want["args"] = _reference_call(ref.eager, args, seed), args
            return True

        found = heldout_inputs(sg, seed, self.device, self.req["degenerate_std"], accepts, on_device=True)
        if found is None:
            return None
        inputs, sizes = found
        accepts(inputs)  # the reference for the chosen inputs (the last try may have been refused)
        shapes = [list(x.shape) for x in inputs if isinstance(x, torch.Tensor)][:3]
        import torch._inductor.config as inductor_config

        args = clone_inputs(inputs)
        try:
            with inductor_config.patch(post_grad_custom_post_pass=_make_cache_tag(self.req["pass_digest"])):
                got = self._checked_call(candidate, args, seed)
            c = merge([compare_outputs(got, want["outputs"]), compare_outputs(args, want["args"])])
        except IntegrityAbort as exc:
            return exc.breach
        except Exception as exc:  # noqa: BLE001 - raising where eager runs is a failure of the pass
            if breach := strict_breach(exc):
                return breach
            return Breach("shape_special_case", f"the candidate raised on the held-out shapes {shapes}... (sizes {sizes} "
                                                f"grown by one), where eager runs: {_describe_error(exc)}")
        if c.min_correct_t is None or c.min_correct_t > max(established, HEADLINE_LEVEL) + 1:
            return Breach("shape_special_case", f"correct on the measured shapes but wrong on the held-out shapes {shapes}... "
                                                f"(max abs error {c.max_abs:.3g})")
        return None
