"""The clean role: references, baselines and every comparison, in a process no pass ever touches.

This process loads the task and nothing else: it never imports, traces or runs a pass. It
computes the eager references on every correctness draw (narrow, spread, wide; at the dtype's
own precision), compiles and checks default Inductor on the same draws, chooses the held-out
shapes, times its own windows of eager and default Inductor, and compares what the candidate
process sends as data (:func:`.wire.read_values`) with its references. Because it is clean it
may live across evaluations of the same task (its references and compiled baselines are facts
about the task), and only it informs the baseline cache.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from ..measure import physics_floor
from ..process.compile_ahead import DeferredBackend, LeaseFlag, compile_only, placeholder_inputs, unwrap
from ..measure.correctness import (
    Comparison,
    OutputMismatch,
    bitwise_equal,
    compare_outputs,
    flatten_outputs,
    merge,
    outputs_equal,
)
from ..tasks.inputs import clone_inputs, is_degenerate
from ..integrity.rules import alias_map
from ..tasks.loader import Subgraph, load_task
from ..process.tracebacks import one_line, trim_traceback
from .steps import _call, _describe_error, _error_stats, _reference_call, build_module
from .draws import (DrawSpec, MAX_SIZES, correctness_draws, draw_inputs, grown_subgraph, growth_to_json, index_ranges,
                    secret_growth, size_candidates, widened_int_ranges)
from .wire import BadValues, dense_non_overlapping, read_values
from .windows import Windows

#: Factors tried, in order, for the spread and wide draws until eager's outputs stay finite.
SPREAD_FACTORS = {"spread": (1.0, 0.5), "wide": (3.0, 2.0, 1.5, 1.0)}


@dataclass
class Reference:
    """Eager's answer on one draw: outputs (flat), the inputs it wrote in place (index -> value
    after the call), the inputs as drawn, and the RNG seed of the call."""

    outputs: list[Any]
    writes: dict[int, torch.Tensor]
    inputs: list[Any]
    seed: int
    aliases: list[frozenset[int]] = field(default_factory=list)  # per output: inputs (and 1000 + earlier outputs) it shares memory with


@dataclass
class SubgraphState:
    """What the clean process holds for one subgraph."""

    sg: Subgraph
    eager: Any
    inductor: Any = None
    inductor_failure: str | None = None
    inductor_error: dict[str, Any] | None = None
    specs: list[DrawSpec] = field(default_factory=list)
    refs: list[Reference] = field(default_factory=list)
    dense: list[bool] = field(default_factory=list)  # per reference output: a dense, non-overlapping tensor
    heldout: Reference | None = None
    heldout_sg: Subgraph | None = None


def _nonfinite_outputs(outputs: list[Any]) -> set[int]:
    return {k for k, o in enumerate(outputs)
            if isinstance(o, torch.Tensor) and (o.is_floating_point() or o.is_complex()) and not bool(torch.isfinite(o).all())}


class CleanRole:
    """The clean process's requests (see the module docstring); one instance per process.

    Args:
        device: ``cpu`` or ``cuda`` (the process sees its one GPU as ``cuda:0``).
        outbox: its folder for the outputs of its own checked calls.
    """

    def __init__(self, device: str, outbox: Path):
        self.device = torch.device(device)
        self.outbox = outbox
        self.task: Any = None
        self.settings: dict[str, Any] = {}
        self.states: dict[int, SubgraphState] = {}
        self.windows = Windows(self.device, outbox)
        self._probe: torch.Tensor | None = None
        self.lease = LeaseFlag()
        self.lease.open()  # closed only while compiling ahead of the lease (op_precompile)
        self._ahead: dict[int, tuple[Any, BaseException | None, dict[str, Any]]] = {}  # subgraph -> (compiled, error, globals)
        self._plans: dict[int, tuple[int, dict[int, int], list[str]]] = {}  # subgraph -> (seed, growth, refused sizes)

    # -- requests ----------------------------------------------------------------------------

    def handle(self, op: str, msg: dict[str, Any]) -> dict[str, Any]:
        fn = getattr(self, f"op_{op}", None)
        if fn is None:
            return {"ok": False, "error": f"unknown request {op!r}"}
        return fn(msg)

    def op_task(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Load a task (forgetting what was held about the previous one)."""
        self.task = load_task(msg["path"], msg.get("id"))
        self.settings = {k: msg[k] for k in ("seed", "draws", "degenerate_std")}
        if self.states:
            self.states.clear()
            self.windows.clear()
            torch._dynamo.reset()
        return {"ok": True, "subgraphs": len(self.task.subgraphs)}

    def op_subgraph(self, msg: dict[str, Any]) -> dict[str, Any]:
        """References on every correctness draw and default Inductor's check on them."""
        i = int(msg["sg"])
        if i in self.states:
            return self._describe(self.states[i], cached=True)
        sg = self.task.subgraphs[i]
        eager = build_module(sg, self.device, f"eager_{i}")
        state = SubgraphState(sg=sg, eager=eager)
        try:
            self._references(state)
        except Exception as exc:  # noqa: BLE001 - the task itself is broken, not any pass
            return {"ok": False, "task_error": f"eager run of model.py failed on inputs synthesised from its metadata: "
                                               f"{one_line(exc)}", "traceback": trim_traceback(exc, [sg.path / "model.py"])}
        if msg.get("inductor", True):
            self._inductor(state, i)
        self.states[i] = state
        return self._describe(state, cached=False)

    def _references(self, state: SubgraphState) -> None:
        sg = state.sg
        s = self.settings
        try:
            indices = index_ranges(sg, state.eager)
        except Exception:  # noqa: BLE001 - no ranges known: recorded bounds only
            indices = {}
        ranges = widened_int_ranges(sg, indices)
        specs = correctness_draws(int(s["seed"]), int(s["draws"]), ranges)
        narrow = [sp for sp in specs if sp.label == "narrow"]
        refs = [self._reference(state, sp) for sp in narrow]
        finite_everywhere = set(range(len(refs[0].outputs))) - set().union(*(_nonfinite_outputs(r.outputs) for r in refs))
        chosen = list(narrow)
        for sp in specs[len(narrow):]:
            ref, used = self._wider(state, sp, finite_everywhere)
            if ref is not None:
                refs.append(ref)
                chosen.append(used)
        state.specs, state.refs = chosen, refs
        state.dense = [isinstance(o, torch.Tensor) and o.layout == torch.strided and dense_non_overlapping(o)
                       for o in refs[0].outputs]

    def _wider(self, state: SubgraphState, spec: DrawSpec, finite: set[int]) -> tuple[Reference | None, DrawSpec]:
        """The spread or wide draw at the largest factor of :data:`SPREAD_FACTORS` at which eager
        keeps finite every output the narrow draws keep finite; with the widened integer ranges,
        or the recorded ones where eager refuses those."""
        for ranges in ((spec.int_ranges, ()) if spec.int_ranges else ((),)):
            for factor in SPREAD_FACTORS[spec.label]:
                trial = DrawSpec(seed=spec.seed, spread=factor, int_ranges=ranges, bool_p=spec.bool_p, label=spec.label)
                try:
                    ref = self._reference(state, trial)
                except Exception:  # noqa: BLE001 - eager refuses these ranges: the recorded ones next
                    break
                if not (_nonfinite_outputs(ref.outputs) & finite):
                    return ref, trial
        return None, spec

    def _reference(self, state: SubgraphState, spec: DrawSpec, sg: Subgraph | None = None) -> Reference:
        sg = sg or state.sg
        inputs = draw_inputs(sg, spec, self.device, float(self.settings["degenerate_std"]))
        args = clone_inputs(inputs)
        out = flatten_outputs(_reference_call(state.eager, args, spec.seed))
        writes = {k: a for k, (b, a) in enumerate(zip(inputs, args))
                  if isinstance(b, torch.Tensor) and isinstance(a, torch.Tensor) and not bitwise_equal(b, a)}
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        return Reference(outputs=out, writes=writes, inputs=inputs, seed=spec.seed, aliases=alias_map(out, args))

    def op_precompile(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Compile default Inductor for subgraph ``sg`` without running it (on placeholders of the
        first draw's sizes; :mod:`passagent.tools.process.compile_ahead`): host work, done before the
        device lease. Its first real call, under the lease, runs what was compiled here."""
        i = int(msg["sg"])
        if i in self.states or i in self._ahead:
            return {"ok": True}
        sg = self.task.subgraphs[i]
        if self.lease.is_open:
            self.lease = LeaseFlag()
        module = build_module(sg, self.device, f"inductor_{i}")
        compiled = torch.compile(module, backend=DeferredBackend(torch._TorchCompileInductorWrapper(None, None, None), self.lease))
        example = draw_inputs(sg, DrawSpec(seed=int(self.settings["seed"])), "cpu", float(self.settings["degenerate_std"]))
        error = compile_only(compiled, placeholder_inputs(example, self.device))
        self._ahead[i] = (compiled, error, type(module).forward.__globals__)
        return {"ok": True, "compiled": error is None}

    def op_open_lease(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The device lease is held: graphs compiled ahead may run (and their deferral is taken out)."""
        self.lease.open()
        for _compiled, _error, namespace in self._ahead.values():
            unwrap(namespace)
        return {"ok": True}

    def _inductor(self, state: SubgraphState, i: int) -> None:
        ahead = self._ahead.pop(i, None)
        compiled = ahead[0] if ahead is not None else torch.compile(build_module(state.sg, self.device, f"inductor_{i}"),
                                                                      backend="inductor")
        try:
            if ahead is not None and ahead[1] is not None:
                raise ahead[1]  # the compile failed ahead of the lease: reported as at its first call
            outs = [_call(compiled, clone_inputs(r.inputs), r.seed) for r in state.refs]
            state.inductor_error = _error_stats(merge([compare_outputs(o, r.outputs) for o, r in zip(outs, state.refs)]))
            state.inductor = compiled
        except Exception as exc:  # noqa: BLE001 - Inductor itself fails on this graph: reported, not the candidate's fault
            state.inductor_failure = one_line(exc)

    def _describe(self, state: SubgraphState, cached: bool) -> dict[str, Any]:
        narrow = [r for r, sp in zip(state.refs, state.specs) if sp.label == "narrow"]
        same = [all(x) for x in zip(*[outputs_equal(narrow[0].outputs, r.outputs) for r in narrow[1:]])] if len(narrow) > 1 else []
        written = sorted(set().union(*(r.writes for r in state.refs)))
        out_bytes = sum(o.numel() * o.element_size() for o in state.refs[0].outputs if isinstance(o, torch.Tensor))
        in_bytes = sum(a.numel() * a.element_size() for a in state.refs[0].inputs if isinstance(a, torch.Tensor))
        aliases = [sorted(a) for a in state.refs[0].aliases]
        return {
            "ok": True, "cached": cached,
            "draws": [sp.to_json() for sp in state.specs],
            "written": written,
            "low_signal": bool(same) and all(same),
            "degenerate_inputs": [a.name for a in state.sg.args if is_degenerate(a)],
            "inductor_error": state.inductor_error,
            "inductor_failure": state.inductor_failure,
            "has_inductor": state.inductor is not None,
            "outputs": len(state.refs[0].outputs),
            "output_bytes": out_bytes,
            "input_bytes": in_bytes,
            "aliases": aliases,
            "written_bytes": physics_floor.written_bytes(state.refs[0].outputs, [frozenset(a) for a in aliases]),
            "fresh_output": any(not a for a in aliases),
        }

    # -- comparisons ---------------------------------------------------------------------------

    def _compare(self, path: str, ref: Reference, written: list[int], dense: list[bool],
                 mutated: list[int] | None = None, call: int | None = None, calls: int = 1) -> dict[str, Any]:
        """Compare a candidate's file (its outputs, then its arguments ``written`` after the call)
        with ``ref``; any breach of what crossed, a structural mismatch, or the comparison. A file
        of a timed window holds ``calls`` calls; ``call`` picks the one compared."""
        n = len(ref.outputs)
        per_call = n + len(written)
        expected = sum(o.numel() * o.element_size() for o in ref.outputs if isinstance(o, torch.Tensor)) \
            + sum(ref.inputs[i].numel() * ref.inputs[i].element_size() for i in written if isinstance(ref.inputs[i], torch.Tensor))
        try:
            values, claims, extra = read_values(Path(path), max_bytes=calls * (expected + 64 * per_call * 1024) + 2**20)
        except BadValues as exc:
            return {"ok": True, "mismatch": f"the candidate's outputs could not be read: {exc}"}
        if call is not None:
            if len(values) != calls * per_call or extra.get("calls") != calls:
                return {"ok": True, "mismatch": f"handed over {len(values)} values for {extra.get('calls')} calls, where "
                                                f"{calls} calls of {per_call} values each were timed"}
            values, claims = values[call * per_call:(call + 1) * per_call], claims[call * per_call:(call + 1) * per_call]
            aliases = extra.get("aliases")
            extra = {"aliases": aliases[call] if isinstance(aliases, list) and len(aliases) == calls else None}
        if len(values) != n + len(written):
            return {"ok": True, "mismatch": f"returned {len(values) - len(written)} outputs, the reference returns {n}"}
        for k, (claim, ref_out) in enumerate(zip(claims[:n], ref.outputs)):
            if not isinstance(ref_out, torch.Tensor):
                continue
            if claim.get("kind") != "tensor":
                return {"ok": True, "mismatch": f"output {k} is {claim.get('type', 'not a tensor')}, expected a Tensor"}
            if not claim.get("exact_type") or claim.get("layout") != "torch.strided" or "nbytes" not in claim:
                return {"ok": True, "breach": {"rule": "output_type", "message": f"output {k} is a {claim.get('type')} "
                                               f"({claim.get('layout')}), not a plain dense torch.Tensor"}}
            if dense[k] and not claim.get("dense", False):
                return {"ok": True, "breach": {"rule": "output_layout", "message": f"output {k} has strides "
                                               f"{claim.get('strides')}: its memory overlaps or has gaps (an expanded or "
                                               f"strided view), where the reference's output is a dense tensor"}}
        aliases = extra.get("aliases")
        if isinstance(aliases, list):
            # The producer's own account of which outputs share memory with its inputs (or with an
            # earlier output, numbered 1000 + k): more sharing than eager's is a cheaper program.
            want = [set(a) for a in ref.aliases] if ref.aliases else [set() for _ in ref.outputs]
            for k, (got, allowed) in enumerate(zip(aliases, want)):
                extra_alias = {int(x) for x in got if isinstance(x, int)} - allowed if isinstance(got, list) else set()
                if any(x < 1000 for x in extra_alias):
                    return {"ok": True, "breach": {"rule": "output_aliases_input", "message": f"output {k} shares memory with "
                                                   f"input {min(x for x in extra_alias if x < 1000)}, the reference's does not"}}
                if extra_alias:
                    return {"ok": True, "breach": {"rule": "output_aliases_output", "message": f"output {k} shares memory with "
                                                   f"output {min(extra_alias) - 1000}, the reference's does not"}}
        if mutated is not None:
            changed = sorted(set(int(m) for m in mutated if isinstance(m, int)) - set(ref.writes))
            if changed:
                return {"ok": True, "breach": {"rule": "input_mutated", "message": f"the candidate changed input {changed[0]} "
                                               f"in place; eager leaves it unchanged"}}
        try:
            # Compared on the reference's device (the candidate's values are moved there).
            c = compare_outputs(values[:n], ref.outputs)
            if ref.writes:
                after = dict(zip(written, values[n:]))
                idx = sorted(ref.writes)
                c = merge([c, compare_outputs([after.get(i) for i in idx], [ref.writes[i] for i in idx])])
        except OutputMismatch as exc:
            return {"ok": True, "mismatch": str(exc)}
        return {"ok": True, "comparison": _comparison_json(c)}

    def op_compare(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The candidate's answer on correctness draw ``draw`` of subgraph ``sg``."""
        state = self.states[int(msg["sg"])]
        ref = state.refs[int(msg["draw"])]
        return self._compare(msg["path"], ref, list(msg["written"]), state.dense, msg.get("mutated"))

    # -- held-out shapes -----------------------------------------------------------------------

    def op_heldout_plan(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Choose subgraph ``sg``'s held-out shapes with fake tensors (shapes only: no device work, so
        before the lease): every size, most frequent first, grown by a secret amount
        (:func:`.draws.secret_growth`, from ``seed``) where eager's shapes still work out with it.
        Replies the growth (pairs of sizes), or why no size can change."""
        i = int(msg["sg"])
        sg = self.task.subgraphs[i]
        seed = int(msg["seed"])
        growth_all = secret_growth(size_candidates(sg)[:MAX_SIZES], seed)
        chosen: dict[int, int] = {}
        refused: list[str] = []
        for size, new in growth_all.items():
            trial = {**chosen, size: new}
            if self._fake_accepts(grown_subgraph(sg, trial), i):
                chosen = trial
            else:
                refused.append(str(size))
        self._plans[i] = (seed, chosen, refused)
        if not chosen:
            return {"ok": True, "growth": None, "reason": _no_growth(refused)}
        return {"ok": True, "growth": growth_to_json(chosen)}

    def op_heldout(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The reference at subgraph ``sg``'s held-out shapes (planned by :meth:`op_heldout_plan` with
        this ``seed``, or planned now), computed for real; a size eager refuses for real (an op
        without a fake kernel accepted it) is dropped, last chosen first. Replies the growth used
        and the first shapes, or why no held-out shape exists."""
        i = int(msg["sg"])
        state = self.states[i]
        seed = int(msg["seed"])
        if self._plans.get(i, (None,))[0] != seed:
            self.op_heldout_plan({"sg": i, "seed": seed})
        _seed, chosen, refused = self._plans.pop(i)
        chosen = dict(chosen)
        order = list(chosen)[::-1]
        while chosen:
            grown = grown_subgraph(state.sg, chosen)
            try:
                state.heldout = self._reference(state, DrawSpec(seed=seed, label="heldout"), sg=grown)
                state.heldout_sg = grown
                shapes = [list(a.shape) for a in grown.args if not a.is_symint][:3]
                return {"ok": True, "growth": growth_to_json(chosen), "shapes": shapes}
            except Exception as exc:  # noqa: BLE001 - eager refuses these sizes for real: fewer sizes
                refused.append(f"{sorted(chosen)} ({_describe_error(exc)})")
                chosen.pop(order.pop(0))
        return {"ok": True, "growth": None, "reason": _no_growth(refused)}

    def _fake_accepts(self, sg: Subgraph, i: int) -> bool:
        from torch._subclasses.fake_tensor import FakeTensorMode

        try:
            with FakeTensorMode(allow_non_fake_inputs=True):
                module = build_module(sg, self.device, f"heldout_probe_{i}")
                inputs = draw_inputs(sg, DrawSpec(seed=0, label="heldout"), self.device,
                                     float(self.settings["degenerate_std"]))
                with torch.no_grad():
                    module(*inputs)
            return True
        except Exception:  # noqa: BLE001 - any refusal means this size is fixed by the graph
            return False

    def op_heldout_compare(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.states[int(msg["sg"])]
        assert state.heldout is not None, "heldout_compare before heldout"
        return self._compare(msg["path"], state.heldout, list(msg["written"]), [False] * len(state.heldout.outputs))

    # -- timed windows -------------------------------------------------------------------------

    def op_timing(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.states[int(msg["sg"])]
        variants = {"eager": state.eager}
        if state.inductor is not None:
            variants["inductor"] = state.inductor
        self.windows.setup(state.sg, variants, int(msg["pool_seed"]), float(self.settings["degenerate_std"]))
        self._timing_state = state
        return {"ok": True, "variants": sorted(variants)}

    def op_prepare(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.windows.prepare(msg["variant"], list(msg["calls"]), list(msg["rng"]))
        return {"ok": True}

    def op_check(self, msg: dict[str, Any]) -> dict[str, Any]:
        path = self.outbox / "own-check.bin"
        self.windows.check(path, list(msg.get("written", [])))
        return {"ok": True}

    def op_spot(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The candidate's outputs of timed call ``call`` of ``calls`` in its window's file (pool
        offset ``r``, RNG seed ``rng``) against eager's on the same inputs, computed now."""
        state = self._timing_state
        assert self.windows.pool is not None, "spot before timing"
        inputs = self.windows.pool.inputs(int(msg["r"]))
        args = clone_inputs(inputs)
        out = flatten_outputs(_reference_call(state.eager, args, int(msg["rng"])))
        writes = {k: a for k, (b, a) in enumerate(zip(inputs, args))
                  if isinstance(b, torch.Tensor) and isinstance(a, torch.Tensor) and not bitwise_equal(b, a)}
        ref = Reference(outputs=out, writes=writes, inputs=inputs, seed=int(msg["rng"]), aliases=alias_map(out, args))
        return self._compare(msg["path"], ref, list(msg["written"]), state.dense, call=int(msg["call"]), calls=int(msg["calls"]))

    def op_null(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}

    def op_device_times(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "times": self.windows.device_times(float(msg.get("budget_s", 0.3)))}

    def op_probe(self, msg: dict[str, Any]) -> dict[str, Any]:
        """One tiny kernel and a device-wide synchronisation (on CUDA): how long this takes tells
        the referee whether another process left work queued on the GPU."""
        if self.device.type == "cuda":
            if self._probe is None:
                self._probe = torch.zeros(1, device=self.device)
            self._probe.add_(1.0)
            torch.cuda.synchronize(self.device)
        return {"ok": True}

    def op_floor(self, msg: dict[str, Any]) -> dict[str, Any]:
        floor = physics_floor.measure(self.device)
        return {"ok": True, "launch_us": floor.launch_us, "bandwidth_gbs": floor.bandwidth_gbs}

    def op_end_timing(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.windows.clear()
        return {"ok": True}

    def op_profile(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Kernel table of default Inductor on subgraph ``sg``."""
        from .candidate import profile_table

        state = self.states[int(msg["sg"])]
        if state.inductor is None:
            return {"ok": True, "error": f"default Inductor fails on this subgraph: {state.inductor_failure}"}
        return profile_table(state.inductor, state.sg, self.device, int(msg.get("calls", 5)), float(self.settings["degenerate_std"]))


def _no_growth(refused: list[str]) -> str:
    return "eager accepts no grown size of this graph" + (f" (refused: {', '.join(refused[:6])})" if refused else "")


def _comparison_json(c: Comparison) -> dict[str, Any]:
    return {"min_correct_t": c.min_correct_t, "max_abs": c.max_abs if math.isfinite(c.max_abs) else None,
            "max_rel": c.max_rel if math.isfinite(c.max_rel) else None, "nonfinite": c.nonfinite,
            "worst_output": c.worst_output}
