"""The ``torch.compile`` backend that applies a pass to the Dynamo FX graph, then runs Inductor.

Dynamo captures the subgraph's forward as an FX graph (one per graph break); the backend
applies the pass's rules to each, records what matched, and hands the rewritten graph to
Inductor's ``compile_fx``, so a pass only has to win where it matches and Inductor compiles
the rest.
"""

from __future__ import annotations

import hashlib

from typing import Any, Callable, cast

import torch
import torch.fx

from ..integrity.rules import aten_signature, precision_downgrades
from .rules import PassRule
from .rewrite import RuleApplication, RuleApplyError, apply_rules
from ..integrity.strict_runtime import StrictViolation, check_strict
from .triton_ops import register_triton_replacements


class PassBackend:
    """Backend callable for ``torch.compile(model, backend=PassBackend(rules))``.

    Attributes:
        rules: the pass's rules, applied in order to every captured graph.
        applications: per captured graph, the list of :class:`RuleApplication`.
        graphs_before / graphs_after: the FX code of each captured graph before and after
            the rewrite (for inspection and for the ``no_change`` check).
        phase: ``"rewrite"`` or ``"inductor"`` while that step runs, None otherwise; if an
            exception escapes ``torch.compile`` while a phase is set, the pass or the compiler
            failed before anything ran (a ``compile`` failure).
        use_inductor: False compiles nothing (runs the rewritten graph eagerly); for tests
            and IR inspection.
        cache_digest: the pass digest (:func:`.rules.pass_digest`); when set, each Inductor
            compile carries a no-op post-grad pass whose ``uuid()`` is the digest, appended to
            any custom post-grad passes already configured (:func:`pass_cache_tag`), so
            Inductor's FX-graph cache never serves a graph compiled under another version of
            the pass. The worker sets the tag itself and leaves this None.
        inductor_options: Inductor config values for these compiles only (``torch.compile``'s
            ``options=``), applied with ``torch._inductor.config.patch`` around ``compile_fx``
            so nothing leaks into other compiles.
        files: the pass's helper modules, so stack traces of replacement nodes name their lines.
        unchanged: per captured graph, whether the ATen ops it lowers to (dead code removed)
            are identical before and after the rewrite (see :attr:`no_change`).
        triton_ops: the custom operators registered for replacements that launch Triton
            kernels (``tools/passes/triton_ops.py``), e.g. ``passagent_1a2b3c4d5e6f.rms_norm_rms_norm.default``.
        strict: PassNet's strict mode at run time: every matched replacement is run once on the
            example inputs before Inductor compiles (:mod:`..integrity.strict_runtime`); one that launches
            no Triton kernel, or computes with ATen ops beside its kernels, raises
            :class:`~..integrity.strict_runtime.StrictViolation` (an ``integrity`` failure in the worker).
    """

    def __init__(
        self,
        rules: list[PassRule],
        *,
        use_inductor: bool = True,
        on_phase: Callable[[str], None] | None = None,
        check_no_change: bool = True,
        files: list[str] | None = None,
        cache_digest: str | None = None,
        inductor_options: dict[str, Any] | None = None,
        strict: bool = False,
    ):
        self.rules = rules
        self.files = files
        self.cache_digest = cache_digest
        self.inductor_options = dict(inductor_options or {})
        self.use_inductor = use_inductor
        self.check_no_change = check_no_change
        self.strict = strict
        self.on_phase = on_phase or (lambda _phase: None)
        self.applications: list[list[RuleApplication]] = []
        self.graphs_before: list[str] = []
        self.graphs_after: list[str] = []
        self.unchanged: list[bool] = []
        self.downgrades: list[str] = []
        self.triton_ops: list[str] = []
        self.phase: str | None = None

    @property
    def no_change(self) -> bool:
        """The pass matched, yet every captured graph lowers to the same ATen ops as without it."""
        return self.total_matches > 0 and bool(self.unchanged) and all(self.unchanged)

    @property
    def total_matches(self) -> int:
        return sum(a.matches for graph in self.applications for a in graph)

    def matches_by_rule(self) -> dict[str, int]:
        """Matches per rule name, summed over captured graphs."""
        out: dict[str, int] = {r.name: 0 for r in self.rules}
        for graph in self.applications:
            for a in graph:
                out[a.rule] += a.matches
        return out

    def sites_by_rule(self, limit: int = 20) -> dict[str, list[str]]:
        """Per rule name, where it matched (:attr:`.rewrite.RuleApplication.sites`), first ``limit``."""
        out: dict[str, list[str]] = {r.name: [] for r in self.rules}
        for graph in self.applications:
            for a in graph:
                out[a.rule].extend(a.sites)
        return {k: v[:limit] for k, v in out.items()}

    def diagnostics(self) -> dict[str, str]:
        """For each rule that matched nowhere, the diagnostic from the first captured graph."""
        counts = self.matches_by_rule()
        out: dict[str, str] = {}
        for graph in self.applications:
            for a in graph:
                if counts[a.rule] == 0 and a.rule not in out and a.diagnostic:
                    out[a.rule] = a.diagnostic
        return out

    def notes(self) -> dict[str, list[str]]:
        """Per rule, what the rewrite did that the author should know (dropped in-place writes)."""
        out: dict[str, list[str]] = {r.name: [] for r in self.rules}
        for graph in self.applications:
            for a in graph:
                out[a.rule] += [n for n in a.notes if n not in out[a.rule]]
        return out

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
        self.phase = "rewrite"
        self.on_phase("candidate_rewrite")
        self.graphs_before.append(gm.code)
        before = aten_signature(gm, example_inputs) if self.check_no_change else None
        try:
            self.applications.append(apply_rules(gm, self.rules, self.files))
        except RuleApplyError as exc:
            self.applications.append(exc.applications)  # the matches found before it failed are reported
            raise
        if self.strict and any(a.matches for a in self.applications[-1]):
            # Runs the pass's replacements (on copies of the inputs) before their Triton leaves
            # become operators: a crash here is the pass's code running, reported as that step.
            self.phase = None
            self.on_phase("candidate_strict")
            breach = check_strict(gm, example_inputs)
            if breach is not None:
                raise StrictViolation(breach)
            self.phase = "rewrite"
        self.triton_ops.extend(register_triton_replacements(gm, example_inputs))
        self.graphs_after.append(gm.code)
        if before is not None:
            # Tracing through the pass's custom ops runs their bodies (on fake tensors): pass code
            # running, not compiling, so a crash here is reported as its own step, a runtime one.
            self.on_phase("candidate_trace")
            after = aten_signature(gm, example_inputs, opaque=set(self.triton_ops))
            self.unchanged.append(before == after)
            if after is not None:
                inputs = {str(x.dtype) for x in example_inputs if isinstance(x, torch.Tensor)}
                self.downgrades += precision_downgrades(before, after, inputs)
        if not self.use_inductor:
            self.phase = None
            return gm.forward
        self.phase = "inductor"
        self.on_phase("candidate_inductor")
        import torch._inductor.config as inductor_config
        from torch._inductor.compile_fx import compile_fx

        patch = dict(self.inductor_options)
        if self.cache_digest is not None:
            current = patch.get("post_grad_custom_post_pass", inductor_config.post_grad_custom_post_pass)
            patch["post_grad_custom_post_pass"] = with_post_grad_pass(current, pass_cache_tag(self.cache_digest))
        with inductor_config.patch(patch):
            compiled = compile_fx(gm, example_inputs)
        self.phase = None
        self.on_phase("candidate_compiled")
        return cast(Callable[..., Any], compiled)


class _CacheTag:
    """A no-op post-grad pass whose ``uuid`` is the pass digest.

    Inductor folds custom passes' uuids into its FX-graph cache key (``CustomPassBase.uuid`` in
    ``torch/_inductor/custom_graph_pass.py``; ``FxGraphHashDetails`` in ``codecache.py``), so
    tagging a compile with the pass source digest means an edited pass (even one that keeps a
    custom op's name and changes its implementation) can never be served a stale compiled
    graph, while kernel caches, which are keyed by their own source, stay shared and warm.
    """

    def __init__(self, digest: str):
        self.digest = digest

    def __call__(self, graph: torch.fx.Graph) -> None:
        return None

    def uuid(self) -> str:
        return f"passagent-pass-{self.digest}"


def pass_cache_tag(digest: str) -> Any:
    """A ``CustomGraphPass`` instance doing nothing, whose ``uuid()`` is ``passagent-pass-<digest>``."""
    from torch._inductor.custom_graph_pass import CustomGraphPass

    tag_cls = type("PassagentCacheTag", (_CacheTag, CustomGraphPass), {})
    return tag_cls(digest)


def custom_pass_list(current: Any) -> list[Any]:
    """The passes an Inductor custom-pass setting holds: None, one pass, or a list of them."""
    if current is None:
        return []
    return list(current) if isinstance(current, (list, tuple)) else [current]


def _accepts_pass_lists() -> bool:
    """Whether this torch's Inductor takes a list for its custom-pass settings (it has
    ``get_custom_graph_passes`` in ``torch/_inductor/custom_graph_pass.py``; torch 2.11 does not)."""
    import torch._inductor.custom_graph_pass as custom_graph_pass

    return hasattr(custom_graph_pass, "get_custom_graph_passes")


def compose_passes(passes: list[Any], lists_accepted: bool | None = None) -> Any:
    """One custom-pass setting value that runs ``passes`` in order: the list itself where Inductor
    takes lists, else one ``CustomGraphPass`` running each in turn whose ``uuid()`` joins theirs
    (None, which makes Inductor bypass its cache, if any of them has none)."""
    lists_accepted = _accepts_pass_lists() if lists_accepted is None else lists_accepted
    if lists_accepted or len(passes) <= 1:
        return list(passes) if lists_accepted else (passes[0] if passes else None)
    from torch._inductor.custom_graph_pass import CustomGraphPass

    class PassSequence(CustomGraphPass):
        def __init__(self, members: list[Any]):
            self.members = members

        def __call__(self, graph: Any) -> None:
            for p in self.members:
                p(graph)

        def uuid(self) -> Any:
            ids = [p.uuid() if hasattr(p, "uuid") else None for p in self.members]
            if any(i is None for i in ids):
                return None
            return hashlib.sha256(repr(ids).encode()).hexdigest()

    return PassSequence(list(passes))


def with_post_grad_pass(current: Any, extra: Any) -> Any:
    """``config.post_grad_custom_post_pass`` with ``extra`` run after any pass already set, never
    replacing it (:func:`compose_passes`)."""
    return compose_passes([*custom_pass_list(current), extra])


