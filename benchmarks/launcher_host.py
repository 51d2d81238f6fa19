"""Host work per call of the generated-kernel launcher, with the kernel launch replaced by a no-op.

    python benchmarks/launcher_host.py [--task task_035] [--calls 20000] [--example DIR]

On the GPU the subgraphs this family targets are host-bound (a few microseconds of kernel in
100-250 microseconds end to end), so the Python a launcher runs per call matters wherever it is
called directly (eager use of a pass, strict mode's counting run); under Inductor the launcher
runs once, at trace time. This measures that Python on the CPU, without a GPU: every
``@triton.jit`` kernel of the pass module is replaced by an object whose ``[grid](...)`` does
nothing, and the replacement is called on CPU tensors of the task's first subgraph shapes.
Prints microseconds of this thread's CPU time per call (best of 5 repeats) for the generated pass and, with ``--example``,
for a hand-written pass of the same task, and the cost of the output's ``torch.empty`` alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
import timeit
from pathlib import Path
from typing import Any

import torch

REPO = Path(__file__).resolve().parent.parent


class _NoLaunch:
    """Stands in for a kernel: ``kernel[grid](*args, **meta)`` evaluates a callable grid and returns."""

    def __getitem__(self, grid: Any) -> Any:
        if callable(grid):
            grid({"BLOCK": 1024})
        return lambda *args, **meta: None


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"launcher_host_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, value in list(vars(module).items()):
        if type(value).__name__ in ("JITFunction", "Autotuner", "Heuristics") or name.endswith("_kernel"):
            setattr(module, name, _NoLaunch())
    return module.replacement_func()


def generated_sources(task: str) -> list[str]:
    """The built-in policy's generated-kernel pass files for each subgraph of ``task`` (deduplicated)."""
    from passagent.agent.builtin.recipes import propose_rules
    from passagent.tools.tasks.builtin import builtin_tasks_dir
    from passagent.tools.tasks.inputs import synthesize_inputs
    from passagent.tools.inspection.ir import fx_node_records
    from passagent.tools.tasks.loader import load_task
    from passagent.tools.evaluation.steps import build_module

    out: list[str] = []
    for sg in load_task(str(builtin_tasks_dir() / task)).subgraphs:
        graphs: list[dict[str, Any]] = []

        def backend(gm: torch.fx.GraphModule, _inputs: list[Any]) -> Any:
            graphs.append({"code": gm.code.strip(), "nodes": fx_node_records(gm)})
            return gm.forward

        torch._dynamo.reset()
        torch.compile(build_module(sg, torch.device("cpu"), "t"), backend=backend)(
            *synthesize_inputs(sg, 0, device=torch.device("cpu")))
        ir = {"index": 0, "name": sg.name, "fx_code": "\n\n".join(g["code"] for g in graphs),
              "fx_nodes": [n for g in graphs for n in g["nodes"]]}
        out += [d.source for d in propose_rules(ir, "cuda") if d.family == "generated kernel" and d.source not in out]
    return out


def per_call_us(fn: Any, args: tuple[torch.Tensor, ...], calls: int) -> float:
    fn(*args)
    # CPU time of this thread, not wall time: the other processes of a shared machine do not count.
    return min(timeit.repeat(lambda: fn(*args), number=calls, repeat=5, timer=time.thread_time)) / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", default="task_035")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--example", type=Path, default=REPO / "examples" / "passes" / "task035_rms_norm_triton",
                    help="a hand-written pass folder of the same task (its first rule file is timed)")
    args = ap.parse_args()
    from passagent.tools.tasks.builtin import builtin_tasks_dir
    from passagent.tools.tasks.inputs import synthesize_inputs
    from passagent.tools.tasks.loader import load_task

    sg = load_task(str(builtin_tasks_dir() / args.task)).subgraphs[0]
    inputs = tuple(synthesize_inputs(sg, 0, device=torch.device("cpu")))
    print(f"{args.task} subgraph 0, inputs {[tuple(t.shape) for t in inputs]} {inputs[0].dtype}; launch replaced by a no-op")
    with tempfile.TemporaryDirectory() as tmp:
        for k, src in enumerate(generated_sources(args.task)):
            path = Path(tmp) / f"generated_{k}.py"
            path.write_text(src)
            fn = _load(path)
            try:
                print(f"generated pass {k}: {per_call_us(fn, inputs, args.calls):.2f} us/call")
            except Exception as e:  # noqa: BLE001 - another dtype's rule: its pattern does not match this subgraph's literals
                print(f"generated pass {k}: not callable on these inputs ({type(e).__name__}: {e})")
            break  # the rule files differ in dtype literals only
    if args.example and args.example.exists():
        rule = sorted(p for p in args.example.glob("*.py"))
        dtype = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}.get(inputs[0].dtype, "")
        rule = [p for p in rule if p.stem.endswith(dtype)] or rule
        print(f"hand-written {rule[0].name}: {per_call_us(_load(rule[0]), inputs, args.calls):.2f} us/call")
    x = inputs[0]
    empty = per_call_us(lambda *_: torch.empty(x.shape, dtype=x.dtype, device=x.device), inputs, args.calls)
    print(f"torch.empty of the output alone: {empty:.2f} us/call")


if __name__ == "__main__":
    sys.exit(main())
