"""Capture a model with Dynamo into GraphNet samples, and validate each graph.

A ``torch.compile`` backend receives every FX graph Dynamo captures (one per graph break)
with parameters and buffers already lifted to placeholders, as GraphNet's samples have them.
Each graph is then validated in five steps, and the first that fails names the failure:

``run``         the model runs eagerly and through the capture, with equal outputs;
``serialise``   ``model.py`` / ``weight_meta.py`` can be written (no state or globals outside);
``reload``      the harness loads the sample and its module reproduces the captured graph's
                outputs on the captured inputs;
``recapture``   Dynamo re-captures the reloaded module into a structurally identical graph;
``analyse``     the harness's static analysis reads its signature and operator sequence.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.fx

from .dedupe import structural_hash
from .sample import ArgMeta, SampleError, model_source, tensor_meta, write_sample

STAGES = ("build", "run", "trace", "serialise", "reload", "recapture", "analyse")


class CaptureError(Exception):
    """Capturing or validating a model failed at ``stage`` (one of :data:`STAGES`) for ``reason``."""

    def __init__(self, stage: str, reason: str):
        super().__init__(f"{stage}: {reason}")
        self.stage = stage
        self.reason = reason


@dataclass
class CapturedGraph:
    """One Dynamo graph of a model, with the real values it was captured on.

    Attributes:
        gm: the FX GraphModule (placeholders: every input, parameter and buffer it reads).
        example_inputs: the tensors passed to it, one per placeholder (detached copies).
        outputs: what it returned on ``example_inputs`` (a tuple of tensors).
        folder: the sample folder once written, else None.
        hash: :func:`~passagent.bench.dedupe.structural_hash` of the graph with input specs.
    """

    gm: torch.fx.GraphModule
    example_inputs: list[torch.Tensor]
    outputs: tuple[Any, ...] = ()
    folder: Path | None = None
    hash: str = ""

    @property
    def input_specs(self) -> list[tuple[tuple[int, ...], torch.dtype]]:
        return [(tuple(t.shape), t.dtype) for t in self.example_inputs]


@dataclass
class CaptureResult:
    """What :func:`capture_model` produced.

    Attributes:
        name: the sample name (folder name of the first graph).
        graphs: the captured graphs, in execution order.
        seconds: wall time of capture and validation.
        nodes: operator nodes over all graphs.
    """

    name: str
    graphs: list[CapturedGraph] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def nodes(self) -> int:
        return sum(1 for g in self.graphs for n in g.gm.graph.nodes if n.op in ("call_function", "call_method"))


class _Collector:
    """A ``torch.compile`` backend that keeps each graph and runs it unchanged."""

    def __init__(self) -> None:
        self.graphs: list[CapturedGraph] = []

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        inputs = [t.detach().clone() if isinstance(t, torch.Tensor) else t for t in example_inputs]
        self.graphs.append(CapturedGraph(gm, inputs))
        return gm.forward


def leaves(x: Any) -> list[Any]:
    """Tensors and scalars of a model output (tuples, dicts, ``ModelOutput``s), flattened."""
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, dict):
        return [leaf for v in x.values() for leaf in leaves(v)]
    if isinstance(x, (list, tuple)):
        return [leaf for v in x for leaf in leaves(v)]
    if hasattr(x, "to_tuple"):
        return leaves(x.to_tuple())
    return [] if x is None else [x]


def outputs_equal(a: Any, b: Any) -> str | None:
    """None if the two outputs are equal (NaN equal to NaN, dtype-aware tolerance), else why not."""
    la, lb = leaves(a), leaves(b)
    if len(la) != len(lb):
        return f"{len(la)} outputs vs {len(lb)}"
    for i, (x, y) in enumerate(zip(la, lb)):
        if isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor):
            return f"output {i}: tensor vs non-tensor"
        if isinstance(x, torch.Tensor):
            if x.shape != y.shape or x.dtype != y.dtype:
                return f"output {i}: {tuple(x.shape)} {x.dtype} vs {tuple(y.shape)} {y.dtype}"
            if torch.equal(x, y):
                continue  # the usual case, and far cheaper than assert_close
            try:
                torch.testing.assert_close(x, y, equal_nan=True)
            except AssertionError as exc:
                return f"output {i}: " + str(exc).splitlines()[0]
        elif x != y:
            return f"output {i}: {x!r} vs {y!r}"
    return None


def lift_get_attrs(gm: torch.fx.GraphModule, inputs: list[Any]) -> tuple[torch.fx.GraphModule, list[Any]]:
    """Turn ``get_attr`` tensor constants into trailing placeholders (GraphNet takes all state as arguments).

    Raises:
        CaptureError: (``serialise``) a ``get_attr`` is not a tensor.
    """
    attrs = [n for n in gm.graph.nodes if n.op == "get_attr"]
    if not attrs:
        return gm, inputs
    last_ph = [n for n in gm.graph.nodes if n.op == "placeholder"][-1]
    extra = []
    for n in attrs:
        value = gm
        for part in str(n.target).split("."):
            value = getattr(value, part)
        if not isinstance(value, torch.Tensor):
            raise CaptureError("serialise", f"get_attr {n.target} is a {type(value).__name__}, not a tensor")
        with gm.graph.inserting_after(last_ph):
            ph = gm.graph.placeholder(f"L_const_{n.name}_")
        last_ph = ph
        n.replace_all_uses_with(ph)
        gm.graph.erase_node(n)
        extra.append(value.detach().clone())
    gm.recompile()
    return gm, inputs + extra


def trace(model: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None) -> tuple[list[CapturedGraph], Any, Any]:
    """Run ``model`` eagerly and through Dynamo with the collecting backend.

    Returns:
        (graphs, eager output, captured output).

    Raises:
        CaptureError: ``run`` if the eager call raises, ``trace`` if Dynamo raises or captures
            nothing, ``run`` if the captured run's outputs differ from eager.
    """
    kwargs = kwargs or {}
    torch._dynamo.reset()
    with torch.no_grad():
        try:
            eager_out = model(*args, **kwargs)
        except Exception as exc:
            raise CaptureError("run", _one_line(exc)) from exc
        collector = _Collector()
        try:
            compiled = torch.compile(model, backend=collector, dynamic=False, fullgraph=False)
            traced_out = compiled(*args, **kwargs)
        except Exception as exc:
            raise CaptureError("trace", _one_line(exc)) from exc
        finally:
            torch._dynamo.reset()
    if not collector.graphs:
        raise CaptureError("trace", "Dynamo captured no graph")
    why = outputs_equal(eager_out, traced_out)
    if why:
        raise CaptureError("run", f"captured run differs from eager: {why}")
    return collector.graphs, eager_out, traced_out


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}"


def placeholder_names(gm: torch.fx.GraphModule) -> list[str]:
    """Forward argument names as written to ``model.py`` (the placeholder targets)."""
    return [str(n.target) for n in gm.graph.nodes if n.op == "placeholder"]


def sample_metas(gm: torch.fx.GraphModule, inputs: list[Any]) -> list[ArgMeta]:
    """``weight_meta`` entries of a full captured graph, one per placeholder."""
    return [tensor_meta(name, t) for name, t in zip(placeholder_names(gm), inputs)]


def validate_sample(folder: Path, graph: CapturedGraph) -> None:
    """Reload a written sample through the harness and check it (``reload``, ``recapture``, ``analyse``).

    Raises:
        CaptureError: naming the failing stage and why.
    """
    from passagent.tools.errors import TaskError
    from passagent.tools.tasks.loader import load_subgraph
    from passagent.tools.evaluation.steps import build_module

    try:
        sg = load_subgraph(folder)
    except TaskError as exc:
        raise CaptureError("analyse", str(exc)) from exc
    if not sg.op_sequence:
        raise CaptureError("analyse", "static analysis found no operator")
    if len(sg.args) != len(graph.example_inputs):
        raise CaptureError("analyse", f"{len(sg.args)} forward arguments, {len(graph.example_inputs)} captured inputs")
    try:
        module = build_module(sg, torch.device("cpu"), "validate")
        with torch.no_grad():
            reloaded = module(*[t.clone() for t in graph.example_inputs])
    except Exception as exc:
        raise CaptureError("reload", _one_line(exc)) from exc
    why = outputs_equal(graph.outputs, reloaded)
    if why:
        raise CaptureError("reload", f"reloaded module differs from the captured graph: {why}")
    collector = _Collector()
    torch._dynamo.reset()
    try:
        with torch.no_grad():
            torch.compile(module, backend=collector, dynamic=False)(*[t.clone() for t in graph.example_inputs])
    except Exception as exc:
        raise CaptureError("recapture", _one_line(exc)) from exc
    finally:
        torch._dynamo.reset()
    if len(collector.graphs) != 1:
        raise CaptureError("recapture", f"Dynamo re-captured {len(collector.graphs)} graphs, expected 1")
    again = collector.graphs[0]
    if structural_hash(again.gm, again.input_specs) != graph.hash:
        raise CaptureError("recapture", "the re-captured graph differs structurally from the original")


def capture_model(
    model: Any,
    args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None,
    *,
    name: str,
    out_dir: Path | None,
    info: dict[str, Any] | None = None,
    validate: bool = True,
) -> CaptureResult:
    """Capture ``model(*args, **kwargs)`` with Dynamo into GraphNet samples and validate them.

    The first graph is written to ``out_dir/name``, later graphs (after graph breaks) to
    ``out_dir/name__g1``, ``name__g2``, ...

    Args:
        model: an ``nn.Module`` or a function of tensors.
        args, kwargs: the example call.
        name: the sample name (``model_name`` in ``graph_net.json``).
        out_dir: where sample folders go; None keeps everything in memory (no reload check).
        info: extra ``graph_net.json`` fields (``source``, ``domain``, ...).
        validate: False skips the reload/recapture/analyse checks.

    Returns:
        A :class:`CaptureResult` with the graphs, their values and folders.

    Raises:
        CaptureError: the first failing stage (:data:`STAGES`) and its reason.
    """
    t0 = time.perf_counter()
    graphs, _eager, _traced = trace(model, args, kwargs)
    result = CaptureResult(name)
    for i, g in enumerate(graphs):
        g.gm, g.example_inputs = lift_get_attrs(g.gm, g.example_inputs)
        if not any(n.op in ("call_function", "call_method") for n in g.gm.graph.nodes):
            continue  # a graph break left a graph with no operator: nothing to benchmark
        with torch.no_grad():
            try:
                g.outputs = tuple(g.gm(*[t.clone() if isinstance(t, torch.Tensor) else t for t in g.example_inputs]))
            except Exception as exc:
                raise CaptureError("run", f"graph {i}: {_one_line(exc)}") from exc
        if not all(isinstance(t, torch.Tensor) for t in g.example_inputs):
            raise CaptureError("serialise", f"graph {i} takes a non-tensor input")
        g.hash = structural_hash(g.gm, g.input_specs)
        try:
            code = model_source(g.gm.graph)
        except SampleError as exc:
            raise CaptureError("serialise", f"graph {i}: {exc}") from exc
        if out_dir is not None:
            folder = Path(out_dir) / (name if not result.graphs else f"{name}__g{len(result.graphs)}")
            meta = {
                "framework": "torch", "num_devices_required": 1, "num_nodes_required": 1, "dynamic": False,
                "model_name": name, "graph_index": len(result.graphs), **(info or {}),
                "torch_version": torch.__version__,
            }
            try:
                write_sample(folder, code, sample_metas(g.gm, g.example_inputs), meta, g.hash)
            except OSError as exc:
                raise CaptureError("serialise", _one_line(exc)) from exc
            g.folder = folder
            if validate:
                validate_sample(folder, g)
        result.graphs.append(g)
    if not result.graphs:
        raise CaptureError("trace", "every captured graph was empty")
    result.seconds = time.perf_counter() - t0
    return result
