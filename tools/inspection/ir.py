"""IR inspection of a subgraph: the Dynamo FX graph, the post-grad ATen graph, Inductor's kernels.

This is what a pass author (a person or a model) reads before writing a pattern: the FX graph
is the exact code a pattern must match; the post-grad ATen graph shows what Inductor sees after
decomposition; the kernel summary shows what default Inductor already fuses, and the profile
where its time goes.

:func:`inspect_subgraph` runs the task's code and Inductor, so callers outside a worker use
:func:`inspect_isolated`, which runs it in a spawned process with a timeout and caches the
result on disk per (subgraph, device, torch version).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any, Sequence

import torch

from ..process.lease_gate import DEVICE_DONE_FILE, READY_FILE, LeaseGate
from ..measure.profiling import profile_calls, top_events
from ..measure.correctness import reference_precision

#: Bump when the inspection output changes shape.
IR_VERSION = 4
_KERNEL_DEF = re.compile(r"^(\w+) = async_compile\.(cpp_pybinding|cpp|triton)\(", re.M)
_ORIGINAL_ATEN = re.compile(r"# Original ATen: \[([^\]]*)\]")


def _describe(value: Any) -> tuple[list[int] | None, str | None]:
    if isinstance(value, torch.Tensor):
        return list(value.shape), str(value.dtype).removeprefix("torch.")
    return None, type(value).__name__ if value is not None else None


_KERNEL_SOURCE = re.compile(
    r"^(\w+) = async_compile\.(?:cpp_pybinding|cpp|triton)\((?:'[^']*',\s*)?(?:\[[^\]]*\],\s*)?r?'''(.*?)'''",
    re.M | re.S)


def kernel_sources(output_code: str, max_lines: int | None = 60) -> dict[str, str]:
    """The source of each kernel Inductor generated (Triton or C++), by kernel name, from its
    output code (``torch._inductor.utils.run_and_get_code``); each cut to ``max_lines`` lines,
    with a last line saying how many were left out (None: whole)."""
    out = {}
    for m in _KERNEL_SOURCE.finditer(output_code):
        lines = m.group(2).strip("\n").splitlines()
        if max_lines is not None and len(lines) > max_lines:
            lines = lines[:max_lines] + [f"... ({len(lines) - max_lines} more lines)"]
        out[m.group(1)] = "\n".join(lines)
    return out


def summarize_kernels(output_code: str) -> list[dict[str, str]]:
    """Kernel launches of Inductor's generated ``call()``, in order.

    Returns:
        One dict per launch: ``name``, ``kind`` (``cpp``, ``triton``, ``extern`` for a library
        call such as a matmul, ``aten`` for a fallback op) and ``fuses`` (what the kernel
        computes: the ATen ops from Inductor's comment, else the ops in its generated name).
    """
    kinds = {m.group(1): m.group(2) for m in _KERNEL_DEF.finditer(output_code)}
    atens: dict[str, str] = {}
    for name in kinds:
        start = output_code.find(f"{name} = async_compile")
        window = output_code[max(0, start - 600): start]
        found = _ORIGINAL_ATEN.findall(window)
        if found:
            atens[name] = found[-1]
    call = output_code.split("def call(", 1)[1] if "def call(" in output_code else ""
    launches: list[dict[str, str]] = []
    for line in call.splitlines():
        line = line.strip()
        m = re.match(r"(\w+)(?:\.run)?\(", line)
        if m and m.group(1) in kinds:
            name = m.group(1)
            kind = "triton" if kinds[name] == "triton" else "cpp"
            fuses = atens.get(name) or " ".join(w for w in re.sub(r"^(cpp|triton_\w{3})_fused_|_\d+$", "", name).split("_") if w)
            launches.append({"name": name, "kind": kind, "fuses": fuses})
            continue
        m = re.search(r"extern_kernels\.(\w+)\(", line)
        if m:
            launches.append({"name": f"extern_kernels.{m.group(1)}", "kind": "extern", "fuses": m.group(1)})
            continue
        m = re.search(r"\b(?:aten|torch\.ops\.aten)\.(\w+)(?:\.\w+)?\(", line)
        if m and "reinterpret_tensor" not in line.split("(", 1)[0]:
            launches.append({"name": f"aten.{m.group(1)}", "kind": "aten", "fuses": m.group(1)})
    return launches


def _profile(fn: Any, args: list[Any], device: torch.device, calls: int = 10) -> list[dict[str, Any]]:
    """Top profiler events per call of ``fn`` (one warm-up call, then ``calls`` profiled)."""
    with torch.no_grad():
        fn(*args)
    return top_events(profile_calls(fn, [args] * calls, device), device)


def dynamo_fx_ir(fn: Any, args: list[Any], *, index: int = 0, name: str = "module") -> dict[str, Any]:
    """The FX part of an IR record, as :func:`inspect_subgraph` records it, without Inductor:
    ``fn(*args)`` is traced by Dynamo (under ``torch.no_grad``, after ``torch._dynamo.reset()``)
    with a backend that keeps each graph and runs it as traced.

    Args:
        fn: a module or function; args: its positional arguments (tensors on any device).
        index, name: copied into the record (the subgraph's index and name).

    Returns:
        ``{"index", "name", "fx_code", "fx_nodes"}``: the graphs' code joined by blank lines, and
        :func:`fx_node_records` of every graph in order. Errors raised by ``fn`` or Dynamo propagate.
    """
    graphs: list[dict[str, Any]] = []

    def backend(gm: torch.fx.GraphModule, _inputs: list[Any]) -> Any:
        graphs.append({"code": gm.code.strip(), "nodes": fx_node_records(gm)})
        return gm.forward

    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(fn, backend=backend)(*args)
    return {"index": index, "name": name, "fx_code": "\n\n".join(g["code"] for g in graphs),
            "fx_nodes": [n for g in graphs for n in g["nodes"]]}


def fx_node_records(gm: torch.fx.GraphModule) -> list[dict[str, Any]]:
    """One record per node of a Dynamo FX graph: name, op, target, and the shape (list of ints)
    and dtype (str) of its example value where it has one (``None`` otherwise)."""
    nodes = []
    for n in gm.graph.nodes:
        shape, dtype = _describe(n.meta.get("example_value"))
        target = getattr(n.target, "__name__", str(n.target)) if n.op != "placeholder" else n.target
        nodes.append({"name": n.name, "op": n.op, "target": str(target), "shape": shape, "dtype": dtype})
    return nodes


def inspect_subgraph(task_path: str, index: int, device: str = "cpu", profile: bool = True,
                     keep: dict[str, Any] | None = None) -> dict[str, Any]:
    """Inspect subgraph ``index`` of the task at ``task_path`` (runs its code: worker only).

    With ``profile=False`` and a ``keep`` dict, what the profile needs (the eager module, the
    compiled one, the inputs) is left in ``keep`` for :func:`profile_inspected`, so the profile
    can run later, under a device lease, without compiling again.

    Returns:
        A JSON-able dict: ``name``, ``args`` (name, shape, dtype), ``fx_code`` (Dynamo FX graph
        as Python), ``fx_nodes`` (op, target, shape, dtype per node), ``aten_code`` (post-grad
        ATen graph), ``kernels`` (see :func:`summarize_kernels`), ``profile`` (top events of
        eager and of Inductor per call, microseconds), ``output_code_lines`` and
        ``inductor_error`` (see :func:`inductor_error`).
    """
    from torch._inductor.compile_fx import compile_fx
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    from .divergence import copy_module, tag_origins
    from ..tasks.inputs import clone_inputs, synthesize_inputs
    from ..tasks.loader import load_task
    from ..evaluation.steps import build_module

    task = load_task(task_path)
    sg = task.subgraphs[index]
    dev = torch.device(device)
    args = synthesize_inputs(sg, 0, device=dev)
    captured: dict[str, Any] = {"fx": [], "aten": [], "graphs": []}

    def backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        captured["fx"].append({"code": gm.code.strip(), "nodes": fx_node_records(gm)})
        tag_origins(gm)
        captured["graphs"].append((copy_module(gm), clone_inputs(list(example_inputs))))
        return compile_fx(gm, example_inputs)

    def record_post_grad(graph: torch.fx.Graph) -> None:
        captured["aten"].append(graph.python_code("self").src.strip())

    torch._dynamo.reset()
    # Kernel profiling makes Inductor's C++ kernels show up by name in the profile below.
    patches = {"post_grad_custom_post_pass": record_post_grad, "force_disable_caches": True, "cpp.enable_kernel_profile": True,
               "fallback_random": True}  # as the evaluation worker compiles it: RNG ops follow eager's stream
    with inductor_config.patch(patches), torch.no_grad():
        compiled = torch.compile(build_module(sg, dev, f"inspect_{index}"), backend=backend)
        _, codes = run_and_get_code(compiled, *args)
    eager = build_module(sg, dev, f"inspect_eager_{index}")
    result = {
        "index": index,
        "name": sg.name,
        "source": sg.source,
        "device": device,
        "args": [{"name": a.name, "shape": list(a.shape), "dtype": "SymInt" if a.is_symint else str(a.dtype).removeprefix("torch.")} for a in sg.args],
        "op_sequence": list(sg.op_sequence),
        "fx_code": "\n\n".join(g["code"] for g in captured["fx"]),
        "fx_nodes": [n for g in captured["fx"] for n in g["nodes"]],
        "graph_breaks": max(0, len(captured["fx"]) - 1),
        "aten_code": "\n\n".join(captured["aten"]),
        "kernels": [k for code in codes for k in summarize_kernels(code)],
        "output_code_lines": sum(c.count("\n") for c in codes),
    }
    with inductor_config.patch(fallback_random=True):
        result["inductor_error"] = err = inductor_error(sg, eager, compiled, dev)
        if captured["graphs"]:
            result["inductor_divergence"] = baseline_divergence(err, *captured["graphs"][0])
    if keep is not None:
        keep.update(eager=eager, compiled=compiled, args=args, device=dev)
    if profile:
        profile_inspected(result, {"eager": eager, "compiled": compiled, "args": args, "device": dev})
    return result


def profile_inspected(result: dict[str, Any], kept: dict[str, Any]) -> dict[str, Any]:
    """Add ``profile`` (top profiler events per call of eager and of default Inductor, µs) to an
    inspection ``result``, from what :func:`inspect_subgraph` left in ``kept``; the only part of
    an inspection that times anything on the device. Returns ``result``."""
    dev = kept["device"]
    result["profile"] = {"eager": _profile(kept["eager"], kept["args"], dev), "inductor": _profile(kept["compiled"], kept["args"], dev)}
    return result


def inductor_error(sg: Any, eager: Any, compiled: Any, device: torch.device, draws: int = 3) -> dict[str, Any]:
    """Default Inductor's error against eager on ``draws`` input draws, as an evaluation measures
    it (same draws and seeds; the eager reference with TF32 off, ``shared/docs/SCORING.md``).

    Returns:
        ``min_correct_t`` (the smallest tolerance level t every output passes on every draw;
        None: no level), ``per_output`` (that level per output), ``max_abs`` and ``max_rel``;
        or ``{"error": "..."}`` where Inductor or eager raised.
    """
    from ..measure.correctness import compare_outputs, merge
    from ..tasks.inputs import clone_inputs, synthesize_inputs

    comparisons = []
    try:
        for k in range(draws):
            args = synthesize_inputs(sg, k, device=device)
            with torch.no_grad(), reference_precision():
                torch.manual_seed(0)
                want = eager(*clone_inputs(args))
            with torch.no_grad():
                torch.manual_seed(0)
                got = compiled(*clone_inputs(args))
            comparisons.append(compare_outputs(got, want))
    except Exception as exc:  # noqa: BLE001 - reported, the rest of the inspection stands
        return {"error": f"{type(exc).__name__}: {exc}"[:400]}
    c = merge(comparisons)
    per_output = [max((x.per_output_min_t[i] for x in comparisons), key=lambda t: 99 if t is None else t)
                  for i in range(len(comparisons[0].per_output_min_t))]
    return {"min_correct_t": c.min_correct_t, "per_output": per_output, "max_abs": c.max_abs, "max_rel": c.max_rel}


def baseline_divergence(err: dict[str, Any], gm: torch.fx.GraphModule, inputs: list[Any]) -> dict[str, Any] | None:
    """Where default Inductor first leaves the level it fails (:mod:`.divergence`), for a subgraph
    it gets wrong at the headline level t=-5 (``err`` from :func:`inductor_error`); None where it
    does not (nothing to explain) or where the error could not be measured.

    ``gm`` is the Dynamo graph with its nodes marked by :func:`.divergence.tag_origins`, ``inputs``
    the inputs it was compiled for. Costs up to ``1 + log2(nodes)`` Inductor compiles."""
    from ..measure.correctness import HEADLINE_LEVEL
    from .divergence import Divergence, compiled_divergence, default_level, node_values
    from ..tasks.inputs import clone_inputs

    if "error" in err:
        return None
    t = err.get("min_correct_t")
    if t is not None and t <= HEADLINE_LEVEL:
        return None
    level = default_level(list(err.get("per_output") or [t])) or HEADLINE_LEVEL
    try:
        reference = node_values(gm, clone_inputs(inputs))
        return compiled_divergence(gm, inputs, reference, level, clone_inputs).model_dump()
    except Exception as exc:  # noqa: BLE001 - reported, the rest of the inspection stands
        return Divergence(computation="inductor", level=level, note=f"the search failed: {type(exc).__name__}: {exc}"[:300]).model_dump()


def _cache_key(task_path: str, index: int, device: str, subgraph_digest: str, threads: int | None = 1) -> str:
    # By device type, not index: a sweep inspects on whichever GPU it leases (cuda:0 or cuda:1 of
    # the same machine), and the inspection must not be redone for each. On the CPU the thread
    # count is in the key: the profile's times depend on it.
    kind = device.split(":")[0]
    blob = json.dumps([IR_VERSION, subgraph_digest, kind, torch.__version__] + ([threads] if kind == "cpu" else []))
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def _cache_file(cache_root: Path | None, task_path: str | Path, index: int, device: str, digest: str,
                threads: int | None = 1) -> Path:
    from ..evaluation.baseline_cache import default_cache_root

    return Path(cache_root or default_cache_root()) / "ir" / f"{_cache_key(str(task_path), index, device, digest, threads)}.json"


def _read_cached(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text()) if path.is_file() else None
    except (json.JSONDecodeError, OSError):
        return None


def cached_inspection(task_path: str | Path, index: int, subgraph_digest: str, *, device: str = "cpu",
                      cache_root: Path | None = None, cpu_threads: int | None = 1) -> dict[str, Any] | None:
    """The inspection :func:`inspect_isolated` would return from its cache, or None (not cached, or
    the cached file is unreadable). Reads files only: no process, no device."""
    return _read_cached(_cache_file(cache_root, task_path, index, device, subgraph_digest, cpu_threads))


def inspect_isolated(task_path: str | Path, index: int, subgraph_digest: str, *, device: str = "cpu",
                     cache_root: Path | None = None, timeout_s: float = 300.0,
                     also: Sequence[tuple[int, str]] = (), gate: LeaseGate | None = None,
                     cpu_threads: int | None = 1) -> dict[str, Any]:
    """:func:`inspect_subgraph` in a spawned process, cached on disk.

    With a ``gate`` (a device lease, :mod:`..process.lease_gate`) the process first produces everything
    that times nothing (FX graph, post-grad graph, Inductor's output code, Inductor's error
    against eager), then reports ready; the lease is taken for the profiles alone and released
    when the process ends. The gate's pool must be ``device`` alone: the process already runs there.

    Args:
        also: other ``(index, digest)`` pairs of the same task to inspect in the same process if
            they are not cached yet. Starting a process and importing torch and Inductor costs
            seconds, and an agent usually inspects every subgraph of a task, so one process
            inspects them all. Their failures are not raised (they are retried on demand).
        timeout_s: time limit per inspected subgraph (seconds).
        cpu_threads: on the CPU, the process's thread pools, as an evaluation with
            ``EvalOptions(cpu_threads=...)`` sets them (default 1, as there), so the profile's
            times are comparable with the evaluation's; None: torch's default. Recorded in the
            result as ``cpu_threads`` (torch's intra-op threads in that process).

    Raises:
        RuntimeError: inspecting ``index`` failed or timed out (the message says which).
    """
    from ..evaluation.baseline_cache import default_cache_root
    from ..process.runner import run_child
    from ..process.device_lease import pin_worker_device

    threads = cpu_threads if device.split(":")[0] == "cpu" else None
    cached = _cache_file(cache_root, task_path, index, device, subgraph_digest, threads)
    hit = _read_cached(cached)
    if hit is not None:
        return hit
    todo = [(index, subgraph_digest)] + [
        (i, d) for i, d in also if i != index and _read_cached(_cache_file(cache_root, task_path, i, device, d, threads)) is None
    ]
    with tempfile.TemporaryDirectory(prefix="passagent-ir-") as tmp:
        env = dict(os.environ)
        # Always ours (see evaluate.worker_environment: Inductor writes its default into os.environ).
        env["TORCHINDUCTOR_CACHE_DIR"] = str(Path(cache_root or default_cache_root()) / "inductor")
        # On cuda:N the child sees GPU N alone, as an evaluation worker does: graphs name their
        # device as plain 'cuda' (graph_source.rewrite_device_literals), which is the *current*
        # GPU, so with every GPU visible a graph moving a tensor `.to('cuda')` mixed cuda:0 and
        # cuda:N and failed (task_032 on a second H200), and its context on cuda:0 disturbed
        # whatever was timed there.
        from ..evaluation.child import thread_environment

        thread_environment(env, threads)
        spawn_env = dict(env)  # the go line pins the leased GPU from this (a pool of several GPUs)
        child_device = pin_worker_device(device, env)
        flags = (["--handshake"] if gate is not None else []) + ([f"--threads={threads}"] if threads else [])
        argv = [sys.executable, "-m", "passagent.tools.inspection.ir", str(task_path), child_device, tmp, *flags,
                *(str(i) for i, _d in todo)]
        run = run_child(argv, cwd=Path(tmp), env=env, timeout_s=timeout_s * len(todo), gate=gate,
                        lease_steps=("inspect", "profile"), spawn_env=spawn_env)
        if run.timed_out and not (Path(tmp) / f"ir_{index}.json").is_file():
            raise RuntimeError(f"inspecting subgraph {index} took longer than {timeout_s:.0f} s")
        results = {i: _read_cached(Path(tmp) / f"ir_{i}.json") for i, _d in todo}
        if results[index] is None:
            error = Path(tmp) / f"ir_{index}.error"
            tail = error.read_text() if error.is_file() else run.tail()
            raise RuntimeError(f"inspecting subgraph {index} failed (exit {run.returncode}):\n{tail}")
    for i, digest in todo:
        if results[i] is not None:
            path = _cache_file(cache_root, task_path, i, device, digest, threads)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp_path = path.with_suffix(f".{os.getpid()}.{time.time_ns()}.tmp")
            tmp_path.write_text(json.dumps(results[i]))
            os.replace(tmp_path, path)
    return results[index]  # type: ignore[return-value]


def main(argv: list[str]) -> int:
    """``python -m passagent.tools.inspection.ir TASK DEVICE OUT_DIR [--handshake] [--threads=N] INDEX...``:
    writes ``ir_<i>.json`` (or ``ir_<i>.error``) per index; exit status 1 if the first index failed.

    ``--threads=N``: the evaluation's thread setting (:func:`..evaluation.serve.settle_process`).

    ``--handshake``: inspect every index without profiling, write the ``ready`` file, wait for
    the go line on standard input (:func:`..process.lease_gate.wait_for_go`; none: exit without profiles),
    then profile each and write ``device_done``."""
    from ..process.lease_gate import wait_for_go

    import torch

    from ..evaluation.serve import settle_process

    task_path, device, out_dir = argv[1], argv[2], Path(argv[3])
    handshake = "--handshake" in argv[4:]
    threads = next((int(a.split("=", 1)[1]) for a in argv[4:] if a.startswith("--threads=")), None)
    indices = [int(a) for a in argv[4:] if a != "--handshake" and not a.startswith("--threads=")]
    settle_process(torch.device(device).type, threads)
    status = 0
    kept: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    for k, index in enumerate(indices):
        keep: dict[str, Any] = {}
        try:
            result = inspect_subgraph(task_path, index, device, profile=not handshake, keep=keep)
        except Exception as exc:  # noqa: BLE001 - reported per subgraph; the rest still run
            (out_dir / f"ir_{index}.error").write_text(f"{type(exc).__name__}: {exc}"[-4000:])
            traceback.print_exc()
            status = 1 if k == 0 else status
            continue
        result["cpu_threads"] = torch.get_num_threads()
        (out_dir / f"ir_{index}.json").write_text(json.dumps(result))
        kept[index] = (result, keep)
    if handshake and kept:
        (out_dir / READY_FILE).write_text("")
        if wait_for_go(sys.stdin) is None:
            return status  # no lease: the inspections stand without their profiles
        for index, (result, keep) in kept.items():
            try:
                profile_inspected(result, keep)
            except Exception:  # noqa: BLE001 - the inspection stands without its profile
                traceback.print_exc()
                continue
            (out_dir / f"ir_{index}.json").write_text(json.dumps(result))
        (out_dir / DEVICE_DONE_FILE).write_text("")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
