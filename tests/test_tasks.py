"""Loading tasks: GraphNet samples, PassNet task folders, folders of samples, bad input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch
from helpers import GRAPHNET, PASSBENCH, passbench_task

from passagent.tools.errors import TaskError
from passagent.tools.tasks.graph_source import analyse_model_source, rewrite_device_literals
from passagent.tools.tasks.inputs import synthesize_inputs
from passagent.tools.tasks.loader import load_task
from passagent.tools.evaluation.steps import build_module, _call

ALL_GRAPHNET = sorted(p for p in GRAPHNET.iterdir() if p.is_dir())
ALL_PASSBENCH = sorted(p for p in PASSBENCH.iterdir() if p.is_dir())


def test_shared_data_counts() -> None:
    assert len(ALL_GRAPHNET) == 25
    assert len(ALL_PASSBENCH) == 2


@pytest.mark.parametrize("sample", ALL_GRAPHNET, ids=lambda p: p.name)
def test_every_graphnet_sample_loads_and_runs_eager_on_cpu(sample: Path) -> None:
    task = load_task(sample)
    assert task.layout == "graphnet-sample" and len(task.subgraphs) == 1
    sg = task.subgraphs[0]
    assert sg.op_sequence, "operator sequence must not be empty"
    module = build_module(sg, torch.device("cpu"), "test")
    out = _call(module, synthesize_inputs(sg, 0), 0)
    outputs = out if isinstance(out, (tuple, list)) else (out,)
    assert len(outputs) >= 1
    for o in outputs:
        if isinstance(o, torch.Tensor) and o.is_floating_point():
            assert o.device.type == "cpu"


@pytest.mark.parametrize("task_dir", ALL_PASSBENCH, ids=lambda p: p.name[:8])
def test_every_passbench_subgraph_loads_and_runs_eager_on_cpu(task_dir: Path) -> None:
    task = load_task(task_dir)
    assert task.layout == "passnet-task"
    listed = [ln for ln in (task_dir / "graph_list.txt").read_text().split() if ln]
    assert [sg.name for sg in task.subgraphs] == listed
    # Real PassBench tasks share an operator sequence up to dtype casts (b511 has a `.to` in
    # its float16/bfloat16 variants that the float16 capture without a cast lacks).
    sequences = {tuple(op for op in sg.op_sequence if op != "to") for sg in task.subgraphs}
    assert len(sequences) == 1
    for sg in task.subgraphs:
        module = build_module(sg, torch.device("cpu"), "test")
        out = _call(module, synthesize_inputs(sg, 0), 0)
        assert all(o.device.type == "cpu" for o in out)
        assert sg.source != sg.path.name, "the source model is read from SOURCE.txt"


def test_passbench_operator_sequences_and_dtypes() -> None:
    task = load_task(passbench_task("623d"))
    assert task.subgraphs[0].op_sequence == ("gelu", "dropout", "linear", "dropout", "add", "rand", "layer_norm")
    assert {d for sg in task.subgraphs for d in sg.dtypes} == {"float16", "bfloat16", "float32"}
    task = load_task(passbench_task("b511"))
    assert task.subgraphs[0].op_sequence == ("getitem", "linear", "tanh", "getitem", "cat", "normalize")


def test_folder_of_samples_is_one_task(tmp_path: Path) -> None:
    for name in ("hf__sadhaklal_mlp-iris", "hf__UAE-Large-V1"):
        shutil.copytree(GRAPHNET / name, tmp_path / "nested" / name)
    task = load_task(tmp_path)
    assert task.layout == "folder"
    assert sorted(sg.name for sg in task.subgraphs) == ["nested/hf__UAE-Large-V1", "nested/hf__sadhaklal_mlp-iris"]


def test_symint_argument_is_a_python_int() -> None:
    sg = load_task(GRAPHNET / "hf__sadhaklal_mlp-iris").subgraphs[0]
    sym = [a for a in sg.args if a.is_symint]
    assert [a.name for a in sym] == ["s77"]
    values = synthesize_inputs(sg, 0)
    index = [a.name for a in sg.args].index("s77")
    assert values[index] == 4 and isinstance(values[index], int)


def test_source_name_from_graph_net_json() -> None:
    sg = load_task(GRAPHNET / "hf__sadhaklal_mlp-iris").subgraphs[0]
    assert sg.source == "sadhaklal/mlp-iris"


# --- bad input: one error naming the file and the field -----------------------------------


def _sample_copy(tmp_path: Path, name: str = "hf__sadhaklal_mlp-iris") -> Path:
    dst = tmp_path / name
    shutil.copytree(GRAPHNET / name, dst)
    return dst


def test_missing_weight_meta_names_the_file(tmp_path: Path) -> None:
    d = _sample_copy(tmp_path)
    (d / "weight_meta.py").unlink()
    with pytest.raises(TaskError, match=r"weight_meta\.py: file is missing"):
        load_task(d)


def test_unknown_dtype_names_file_and_field(tmp_path: Path) -> None:
    d = _sample_copy(tmp_path)
    text = (d / "weight_meta.py").read_text().replace('"torch.float32"', '"torch.float33"', 1)
    (d / "weight_meta.py").write_text(text)
    with pytest.raises(TaskError) as info:
        load_task(d)
    assert "weight_meta.py" in str(info.value) and ".dtype]" in str(info.value)
    assert "unknown dtype 'torch.float33'" in str(info.value)


def test_data_length_must_match_shape(tmp_path: Path) -> None:
    d = _sample_copy(tmp_path)
    text = (d / "weight_meta.py").read_text().replace("data = [4]", "data = [4, 5]")
    (d / "weight_meta.py").write_text(text)
    with pytest.raises(TaskError, match=r"\[s77\.data\].*2 values but shape \[\] needs 1"):
        load_task(d)


def test_argument_without_metadata(tmp_path: Path) -> None:
    d = _sample_copy(tmp_path)
    text = (d / "weight_meta.py").read_text().replace('name = "L_x_"', 'name = "L_y_"')
    (d / "weight_meta.py").write_text(text)
    with pytest.raises(TaskError, match=r"\[L_x_\]: no metadata for this forward argument"):
        load_task(d)


def test_model_py_that_does_not_parse(tmp_path: Path) -> None:
    d = _sample_copy(tmp_path)
    (d / "model.py").write_text("class GraphModule(torch.nn.Module):\n    def forward(self, x:\n")
    with pytest.raises(TaskError, match=r"model\.py: does not parse"):
        load_task(d)


def test_metadata_is_never_executed(tmp_path: Path) -> None:
    d = _sample_copy(tmp_path)
    marker = tmp_path / "executed"
    (d / "weight_meta.py").write_text(
        (d / "weight_meta.py").read_text() + f"\nopen({str(marker)!r}, 'w').write('x')\n"
    )
    load_task(d)
    assert not marker.exists()


def test_graph_list_naming_a_missing_folder(tmp_path: Path) -> None:
    src = passbench_task("b511")
    dst = tmp_path / "task"
    shutil.copytree(src, dst)
    (dst / "graph_list.txt").write_text("graphs/0\ngraphs/9\n")
    with pytest.raises(TaskError, match=r"graph_list\.txt \[line 2\]: listed folder 'graphs/9' does not exist"):
        load_task(dst)


def test_nonexistent_path_or_unknown_builtin() -> None:
    with pytest.raises(TaskError, match="no such task folder or built-in task id"):
        load_task("/definitely/not/here")


# --- device literals ----------------------------------------------------------------------


def test_cuda_literals_rewritten_for_cpu_keep_line_numbers() -> None:
    src = (
        "import torch\nfrom torch import device\n"
        "def f(x):\n"
        "    a = torch.arange(3, device=device(type='cuda', index=0))\n"
        "    b = torch.zeros(2, device='cuda:0')\n"
        "    c = x.to('cuda')\n"
        "    d = x.cuda()\n"
        "    e = torch.ones(\n        1,\n        device=device(type='cuda', index=0),\n    )\n"
        "    return a, b, c, d, e\n"
    )
    out = rewrite_device_literals(src, "cpu")
    assert "cuda" not in out
    assert out.count("\n") == src.count("\n")
    assert out.splitlines()[11] == "    return a, b, c, d, e"
    ns: dict = {}
    exec(out, ns)  # noqa: S102 - the rewritten source is the test's own subject
    results = ns["f"](torch.ones(1))
    assert all(r.device.type == "cpu" for r in results)


def test_cpu_literals_rewritten_for_cuda() -> None:
    src = "from torch import device\nx = f(device=device(type='cpu'))\ny = g(device='cpu')\n"
    out = rewrite_device_literals(src, "cuda")
    assert "cpu" not in out and out.count("'cuda'") == 2


def test_op_sequence_of_methods_and_operators() -> None:
    src = (
        "import torch\nclass GraphModule(torch.nn.Module):\n"
        "    def forward(self, x, s: torch.SymInt):\n"
        "        y = x.view(-1) * 2\n"
        "        z = torch.nn.functional.relu(y[0:3])\n"
        "        z += 1\n"
        "        return (-z,)\n"
    )
    g = analyse_model_source(src, Path("model.py"))
    assert [a.name for a in g.args] == ["x", "s"] and g.args[1].is_symint
    assert g.op_sequence == ("view", "mul", "getitem", "relu", "iadd", "neg")
