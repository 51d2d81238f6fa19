"""The built-in benchmark: capture, passagent.extract, bad architectures, structural hash, grouping,
and every shipped task loading and running under the harness."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest
import torch
import torch.fx

from passagent.bench import extract 
from passagent.bench.architectures import VARIANTS, Architecture, get_architecture 
from passagent.bench.capture import CaptureError, capture_model 
from passagent.bench.cut import Candidate, Cutter 
from passagent.bench.dedupe import group_key, structural_hash 
from passagent.bench.group import MAX_SUBGRAPHS, MIN_SUBGRAPHS, choose_members, dedupe, group 
from passagent.bench.harvest import capture_architectures, harvest 
from passagent.bench.sample import ArgMeta 
from passagent.tools.tasks.builtin import builtin_tasks_dir, load_manifest 
from passagent.tools.tasks.inputs import synthesize_inputs 
from passagent.tools.tasks.loader import load_task 
from passagent.tools.evaluation.steps import build_module 

CPU = torch.device("cpu")
#: Capturing a registered architecture needs the ``bench`` extra; everything else needs only torch.
needs_transformers = pytest.mark.skipif(importlib.util.find_spec("transformers") is None,
                                        reason="transformers is not installed (pip install 'passagent[bench]')")


def _run_sample(folder: Path, args: list[torch.Tensor] | None = None) -> tuple:
    task = load_task(folder)
    assert task.layout == "graphnet-sample"
    sg = task.subgraphs[0]
    module = build_module(sg, CPU, "test")
    with torch.no_grad():
        return module(*(args if args is not None else synthesize_inputs(sg, 0)))


# --- capture -----------------------------------------------------------------------------------


@needs_transformers
def test_capture_of_a_real_transformers_architecture(tmp_path: Path) -> None:
    """ELECTRA-small from its config: captured, validated, loadable, and cut into all three categories."""
    arch = get_architecture("electra")
    record, cands = harvest(arch, seed=0, captures_dir=tmp_path, variants=VARIANTS[:1], cut=True)
    assert record["status"] == "ok", record
    folder = tmp_path / "electra" / "electra__s0_float32"
    info = json.loads((folder / "graph_net.json").read_text())
    assert info["model_name"] == "electra__s0_float32" and info["source"] == "transformers:ElectraModel"
    task = load_task(folder)
    sg = task.subgraphs[0]
    assert "linear" in sg.op_sequence and "layer_norm" in sg.op_sequence
    # Parameters are forward arguments, with GraphNet statistics; token ids have a sampling range.
    names = [a.name for a in sg.args]
    assert any("parameters_weight" in n for n in names)
    ids = next(a for a in sg.args if "input_ids" in a.name)
    assert ids.meta.dtype == torch.int64 and ids.meta.min_val is not None and ids.meta.max_val is not None
    outputs = _run_sample(folder)
    assert outputs[0].shape == (1, 128, 256)
    categories = {c["category"] for c in cands}
    assert categories == {"sole", "fusible", "typical"}
    for c in cands[:20]:
        assert c["code"].startswith("import torch") and "class GraphModule(torch.nn.Module)" in c["code"]


def test_reloaded_sample_reproduces_the_captured_graph(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.LayerNorm(16)).eval()
    x = torch.randn(4, 8)
    result = capture_model(model, (x,), name="seq", out_dir=tmp_path)
    g = result.graphs[0]
    assert g.folder == tmp_path / "seq"
    reloaded = _run_sample(g.folder, [t.clone() for t in g.example_inputs])
    torch.testing.assert_close(reloaded[0], model(x))
    assert (g.folder / "graph_hash.txt").read_text().strip() == g.hash


def test_extract_wraps_a_user_model_and_captures_its_first_call(tmp_path: Path) -> None:
    class Block(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(16, 32)

        def forward(self, x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
            return torch.softmax(self.proj(x) * scale, dim=-1)

    model = Block().eval()
    x, scale = torch.randn(2, 5, 16), torch.rand(1)
    wrapped = extract("block", output_dir=tmp_path)(model)
    y = wrapped(x, scale)
    torch.testing.assert_close(y, model(x, scale))
    assert wrapped(x, scale).shape == (2, 5, 32)  # later calls run normally, capture nothing more
    assert (tmp_path / "block" / "model.py").is_file() and not (tmp_path / "block_1").exists()
    out = _run_sample(tmp_path / "block")
    assert out[0].shape == (2, 5, 32)
    task = load_task(tmp_path / "block")
    assert task.subgraphs[0].op_sequence[-1] == "softmax" or "softmax" in task.subgraphs[0].op_sequence


def test_extract_as_context_manager_and_class_decorator(tmp_path: Path) -> None:
    def fn(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.silu(a @ b) + 1.0

    a, b = torch.randn(3, 4), torch.randn(4, 6)
    with extract("fn", output_dir=tmp_path) as ex:
        y = ex.run(fn, a, b)
    torch.testing.assert_close(y, fn(a, b))
    assert ex.samples == [tmp_path / "fn"]

    @extract("mlp", output_dir=tmp_path)
    class MLP(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(6, 6)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.fc(x))

    m = MLP().eval()
    m(torch.randn(2, 6))
    assert (tmp_path / "mlp" / "weight_meta.py").read_text().count("class Program_weight_tensor_meta_") == 3
    import passagent

    if hasattr(passagent, "extract"):  # re-exported by the package root
        assert passagent.extract is extract


def test_bad_architectures_are_logged_with_their_reason_and_the_run_goes_on(tmp_path: Path) -> None:
    def text_inputs(shape: dict, gen: torch.Generator) -> dict:
        return {"x": torch.randn(shape["batch"], 8, generator=gen)}

    class Raises(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            raise RuntimeError("this model is broken")

    class Noisy(torch.nn.Module):  # draws new random numbers every call: never equal when reloaded
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + torch.rand_like(x)

    @torch._dynamo.allow_in_graph
    def opaque(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    class Unserialisable(torch.nn.Module):  # the graph calls a user function a sample cannot import
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return opaque(torch.relu(x))

    class Good(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(8, 8)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.tanh(self.fc(x))

    def arch(name: str, make) -> Architecture:
        return Architecture(name, "vision", f"test:{name}", "-", "torch", make, text_inputs, ({"batch": 2},))

    def no_constructor() -> torch.nn.Module:
        raise ValueError("config rejected")

    archs = [
        arch("no_constructor", no_constructor),
        arch("raises", Raises),
        arch("noisy", Noisy),
        arch("unserialisable", Unserialisable),
        arch("good", Good),
        Architecture("needs_missing_pkg", "vision", "x", "-", "no_such_package_xyz", Raises, text_inputs, ({"batch": 1},)),
    ]
    records = capture_architectures(archs, tmp_path)
    by = {r["arch"]: r for r in records}
    assert [r["arch"] for r in records] == [a.name for a in archs]
    assert by["no_constructor"]["status"] == "failed" and by["no_constructor"]["stage"] == "build"
    assert "config rejected" in by["no_constructor"]["reason"]
    assert by["raises"]["status"] == "failed" and by["raises"]["stage"] == "run"
    assert "this model is broken" in by["raises"]["reason"]
    assert by["noisy"]["status"] == "failed" and by["noisy"]["stage"] in ("run", "reload")
    assert by["unserialisable"]["status"] == "failed" and by["unserialisable"]["stage"] == "serialise"
    assert by["needs_missing_pkg"]["status"] == "skipped" and "no_such_package_xyz" in by["needs_missing_pkg"]["reason"]
    assert by["good"]["status"] == "ok"
    assert (tmp_path / "good" / "good__s0_float32" / "model.py").is_file()
    log = [json.loads(line) for line in (tmp_path / "capture_log.jsonl").read_text().splitlines()]
    assert [r["arch"] for r in log] == [a.name for a in archs]


def test_capture_error_names_the_stage() -> None:
    with pytest.raises(CaptureError) as info:
        capture_model(lambda x: x.nonexistent_method(), (torch.randn(2),), name="bad", out_dir=None)
    assert info.value.stage == "run" and "nonexistent_method" in info.value.reason


# --- structural hash ---------------------------------------------------------------------------


def _graph(fn) -> torch.fx.GraphModule:
    return torch.fx.symbolic_trace(fn)


def test_structural_hash_ignores_placeholder_and_node_names() -> None:
    def f(x, w):
        h = torch.nn.functional.linear(x, w)
        return torch.nn.functional.gelu(h) * 0.5

    def g(hidden_states, weight):
        projected = torch.nn.functional.linear(hidden_states, weight)
        return torch.nn.functional.gelu(projected) * 0.5

    specs = [((2, 8), torch.float32), ((4, 8), torch.float32)]
    assert structural_hash(_graph(f), specs) == structural_hash(_graph(g), specs)
    assert group_key(_graph(f), specs) == group_key(_graph(g), specs)


def test_structural_hash_is_sensitive_to_literals_ops_and_shapes() -> None:
    specs = [((2, 8), torch.float32)]
    base = structural_hash(_graph(lambda x: torch.softmax(x * 0.5, dim=-1)), specs)
    assert structural_hash(_graph(lambda x: torch.softmax(x * 0.25, dim=-1)), specs) != base  # float literal
    assert structural_hash(_graph(lambda x: torch.softmax(x * 0.5, dim=0)), specs) != base  # int literal
    assert structural_hash(_graph(lambda x: torch.log_softmax(x * 0.5, dim=-1)), specs) != base  # op
    assert structural_hash(_graph(lambda x: torch.softmax(x + 0.5, dim=-1)), specs) != base  # op
    other_shape = [((4, 8), torch.float32)]
    fn = _graph(lambda x: torch.softmax(x * 0.5, dim=-1))
    assert structural_hash(fn, other_shape) != base
    assert structural_hash(fn, [((2, 8), torch.float16)]) != base
    # The group key abstracts shapes and float dtypes, and shape-following literals.
    assert group_key(fn, other_shape) == group_key(fn, specs) == group_key(fn, [((2, 8), torch.bfloat16)])
    v1 = _graph(lambda x: x.view(2, 4, 2).transpose(1, 2))
    v2 = _graph(lambda x: x.view(4, 4, 4).transpose(1, 2))
    assert structural_hash(v1, specs) != structural_hash(v2, [((4, 16), torch.float32)])
    assert group_key(v1, specs) == group_key(v2, [((4, 16), torch.float32)])
    # ... but not the literals that change what is computed.
    t3 = _graph(lambda x: x.view(2, 4, 2).transpose(0, 2))
    assert group_key(t3, specs) != group_key(v1, specs)


def test_structural_hash_of_cut_subgraphs_matches_across_layers() -> None:
    torch.manual_seed(0)
    layer = lambda: torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU())  # noqa: E731
    model = torch.nn.Sequential(layer(), layer(), torch.nn.LayerNorm(16)).eval()
    result = capture_model(model, (torch.randn(3, 16),), name="layers", out_dir=None)
    cands = Cutter(result.graphs[0].gm, result.graphs[0].example_inputs).candidates()
    lin_gelu = [c for c in cands if c.ops == ("linear", "gelu")]
    assert len(lin_gelu) == 1 and lin_gelu[0].occurrences == 2  # layer 0 and 1: one subgraph, seen twice
    assert lin_gelu[0].key_occurrences == 2


# --- grouping ----------------------------------------------------------------------------------


def _fake(key: str, n: int, arch: str, dtype: str, shape: int) -> Candidate:
    meta = ArgMeta("in_0", (shape, 8), f"torch.{dtype}", "cpu", 0.0, 1.0, None, None, None)
    return Candidate("typical", "import torch\n", [meta], ("linear", "gelu"), f"{key}-{arch}-{dtype}-{shape}-{n}",
                     key, 0, 2, source={"arch": arch, "domain": "language", "variant": "s0", "graph": 0})


def test_grouping_yields_three_to_eight_mixed_subgraphs_per_task() -> None:
    cands = [_fake("k1", i, arch, dtype, shape)
             for i, (arch, dtype, shape) in enumerate(
                 [(a, d, s) for a in ("bert", "gpt2", "vit") for d in ("float32", "float16", "bfloat16") for s in (4, 8)])]
    cands += [_fake("k2", 0, "bert", "float32", 4), _fake("k2", 1, "gpt2", "float32", 4)]  # too few
    cands += [cands[0]]  # an exact duplicate
    unique, total = dedupe(cands)
    assert total == len(cands) and len(unique) == len(cands) - 1
    groups = {g.key: g for g in group(unique)}
    assert groups["k1"].is_task() and not groups["k2"].is_task()
    chosen = choose_members(groups["k1"], random.Random(0))
    assert MIN_SUBGRAPHS <= len(chosen) <= MAX_SUBGRAPHS
    assert {d for c in chosen for d in c.dtypes} == {"float32", "float16", "bfloat16"}
    assert {c.source["arch"] for c in chosen} == {"bert", "gpt2", "vit"}
    assert len({c.metas[0].shape for c in chosen}) == 2
    assert choose_members(groups["k1"], random.Random(0)) == chosen  # seeded


# --- the shipped benchmark ---------------------------------------------------------------------

MANIFEST = load_manifest()


def test_shipped_manifest_meets_the_targets() -> None:
    assert len(MANIFEST) >= 100
    ids = [t["id"] for t in MANIFEST]
    assert ids == [f"task_{i:03d}" for i in range(len(ids))]
    models = {m for t in MANIFEST for m in t["source_models"]}
    assert len(models) >= 30
    assert {d for t in MANIFEST for d in t["domains"]} == {"vision", "language", "audio"}
    assert {t["category"] for t in MANIFEST} == {"fusible", "typical", "sole"}
    for t in MANIFEST:
        assert MIN_SUBGRAPHS <= len(t["subgraphs"]) <= MAX_SUBGRAPHS, t["id"]
        for s in t["subgraphs"]:
            assert s["eager_us"] > 0 and s["inductor_us"] > 0
    full = json.loads((builtin_tasks_dir().parent / "manifest.json").read_text())
    assert {"version", "machine", "torch_version", "generated_at", "tasks"} <= set(full)
    size = sum(p.stat().st_size for p in builtin_tasks_dir().parent.rglob("*")
               if p.is_file() and ("tasks" in p.parts or p.name == "manifest.json"))
    assert size < 20 * 2**20


def test_tasks_list_filters_by_category_and_op() -> None:
    from io import StringIO

    from rich.console import Console

    from passagent.bench.cli import tasks_list

    buf = StringIO()
    n_all = tasks_list(console=Console(file=buf, width=200))
    assert n_all == len(MANIFEST) and "task_000" in buf.getvalue()
    n_sole = tasks_list(category="sole", console=Console(file=StringIO(), width=200))
    assert n_sole == sum(t["category"] == "sole" for t in MANIFEST)
    n_lin = tasks_list(op="linear", console=Console(file=StringIO(), width=200))
    assert n_lin == sum(any("linear" in o for o in t["op_sequence"]) for t in MANIFEST) > 0


@pytest.mark.slow
def test_every_shipped_subgraph_loads_and_runs_eagerly_on_cpu() -> None:
    """Every subgraph of every built-in task, through the harness: load_task, build_module, synthesised inputs."""
    assert MANIFEST, "no built-in tasks shipped"
    failures = []
    count = 0
    for row in MANIFEST:
        task = load_task(row["id"])
        assert task.layout == "passnet-task" and len(task.subgraphs) == len(row["subgraphs"])
        for sg, srow in zip(task.subgraphs, row["subgraphs"]):
            assert sg.name == srow["name"] and sg.source == srow["source_model"]
            assert [list(a.shape) for a in sg.args] == srow["shapes"]
            try:
                module = build_module(sg, CPU, f"{row['id']}_{sg.name}")
                with torch.no_grad():
                    out = module(*synthesize_inputs(sg, 0))
                outputs = out if isinstance(out, (tuple, list)) else (out,)
                assert outputs and all(isinstance(o, torch.Tensor) for o in outputs)
                assert not any(o.is_floating_point() and o.isnan().any() for o in outputs), "NaN output"
            except Exception as exc:  # noqa: BLE001 - collect every failure, report them together
                failures.append(f"{row['id']}/{sg.name}: {type(exc).__name__}: {exc}")
            count += 1
    assert not failures, "\n".join(failures[:20])
    assert count == sum(len(r["subgraphs"]) for r in MANIFEST)
