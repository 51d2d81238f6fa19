"""Static checks: every rule fires on an adversarial source at the right line, and honest passes
(the examples, the harmless test passes, realistic Triton passes) are flagged by nothing."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from helpers import EXAMPLES, TEST_PASSES

from passagent.tools.integrity.static_checks import RULES, Mode, Violation, check_pass, check_source

# --- honest passes ---------------------------------------------------------------------------

TRITON_ELEMENTWISE = '''
"""Fuse silu(x) + bias into one Triton kernel (a typical PassNet-style pass)."""
import torch
import triton
import triton.language as tl


def pattern(x, bias):
    y = torch.nn.functional.silu(x, inplace=False)
    return y + bias


def replacement_args(x, bias):
    return (x, bias)


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": 512}, num_warps=4), triton.Config({"BLOCK_SIZE": 1024}, num_warps=8)],
    key=["n_elements"],
)
@triton.jit
def silu_add_kernel(x_ptr, bias_ptr, out_ptr, n_elements, n_cols, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + offsets % n_cols, mask=mask, other=0.0).to(tl.float32)
    y = x * tl.sigmoid(x) + b
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


@torch.fx.wrap
def silu_add(x, bias):
    assert x.is_contiguous() and x.dtype in (torch.float16, torch.bfloat16, torch.float32)
    out = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    silu_add_kernel[grid](x, bias, out, n_elements, bias.shape[-1])
    return out


def replacement_func():
    return silu_add
'''

TRITON_CUSTOM_OP = '''
"""RMSNorm as a Triton kernel registered as custom ops, so Inductor compiles around it."""
from __future__ import annotations

import math
from typing import Optional

import torch
import triton
import triton.language as tl
from torch.library import triton_op, wrap_triton


def pattern(x, w):
    variance = x.pow(2).mean(-1, keepdim=True)
    return x * torch.rsqrt(variance + 1e-06) * w


def replacement_args(x, w):
    return (x, w)


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, out_ptr, stride_row, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * stride_row + cols, x * tl.rsqrt(mean_sq + eps) * w, mask=mask)


def _launch(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, eps: Optional[float] = None) -> None:
    n_cols = x.shape[-1]
    block = triton.next_power_of_2(n_cols)
    num_warps = 4 if block <= 2048 else 8
    grid = (x.numel() // n_cols,)
    rms_norm_kernel[grid](x, w, out, x.stride(-2), n_cols, eps or 1e-06, BLOCK=block, num_warps=num_warps)


@torch.library.custom_op("passagent_fixture::rms_norm", mutates_args=())
def rms_norm(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    _launch(x, w, out)
    return out


@rms_norm.register_fake
def _(x, w):
    return torch.empty_like(x)


@triton_op("passagent_fixture::rms_norm_t", mutates_args={})
def rms_norm_t(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    out = x.new_empty(x.shape)
    n_cols = x.size(-1)
    wrap_triton(rms_norm_kernel)[(x.numel() // n_cols,)](
        x, w, out, x.stride(-2), n_cols, 1e-06, BLOCK=triton.next_power_of_2(n_cols))
    return out


def replacement_func():
    return torch.ops.passagent_fixture.rms_norm


if __name__ == "__main__":  # never runs under the harness's loader, so it is not checked
    import time

    x = torch.randn(4, 64, device="cuda")
    start = time.perf_counter()
    torch.testing.assert_close(rms_norm(x, torch.ones(64, device="cuda")), pattern(x, 1.0))
    print(time.perf_counter() - start, math.pi)
'''

SHADOWED_BUILTINS = '''
import torch


def pattern(input, weight, id):
    return torch.nn.functional.linear(input, weight) + id


def replacement_args(input, weight, id):
    return (input, weight, id)


def fused(input, weight, id):
    compile = input.shape[0]
    hash = [compile]
    hash.append(1)
    return torch.addmm(id, input, weight.t())


def replacement_func():
    return fused
'''

HONEST_FILES = [
    *sorted(EXAMPLES.glob("*.py")),
    *sorted((TEST_PASSES / "honest").glob("*.py")),
    EXAMPLES / "b511_pooler_dir",
    *(TEST_PASSES / f"{n}.py" for n in ("wrong_maths", "no_match", "wrong_shape", "raises_in_replacement", "missing_function")),
]


@pytest.mark.parametrize("path", HONEST_FILES, ids=lambda p: p.name)
def test_honest_pass_files_are_clean_in_permissive_mode(path: Path) -> None:
    assert check_pass(path) == []


@pytest.mark.parametrize("source", [TRITON_ELEMENTWISE, TRITON_CUSTOM_OP], ids=["elementwise", "custom_op"])
@pytest.mark.parametrize("mode", list(Mode))
def test_realistic_triton_passes_are_clean_in_both_modes(source: str, mode: Mode) -> None:
    assert check_source(source, "fixture.py", mode) == []


def test_a_parameter_named_like_a_builtin_is_not_the_builtin() -> None:
    assert check_source(SHADOWED_BUILTINS) == []


def test_unparsable_source_is_left_to_the_loader() -> None:
    assert check_pass(TEST_PASSES / "syntax_error.py") == []
    assert check_source("def f(:\n") == []


def test_adversarial_test_passes_are_flagged() -> None:
    assert [(v.rule, v.line) for v in check_pass(TEST_PASSES / "segfault_at_runtime.py")] == [("forbidden_import", 2)]
    assert [(v.rule, v.line) for v in check_pass(TEST_PASSES / "hang_at_runtime.py")] == [("forbidden_import", 2)]
    # Exhausting memory needs no forbidden name: only strict mode (an op in the custom op) or the
    # worker's RLIMIT_AS stop it.
    assert check_pass(TEST_PASSES / "exhaust_memory.py") == []
    assert [v.rule for v in check_pass(TEST_PASSES / "exhaust_memory.py", Mode.STRICT)] == ["strict_mode_torch_call"]


# --- adversarial sources: one or more per rule; the line marked `# <-` is the one flagged ----

PRELUDE = "import torch\nimport triton\nimport functools\n\n\ndef pattern(x):\n    return torch.cat([x], 1)\n\n\n"

ADVERSARIAL = {
    "forbidden_import": [
        "import time  # <-",
        "from passagent.tools import timing  # <-",
        "import torch.profiler  # <-",
        "from graph_net_bench.torch.dispatch import unwrap_tensor  # <-",
        "import os.path  # <-",
        "import torch.distributed as dist  # <-",
        "from torch import *  # <-",
        "def f(x):\n    return torch.utils.checkpoint.checkpoint(f, x)  # <-",
        "def f(x):\n    return torch.cuda.memory_allocated()  # <-",
        "def f(x):\n    return triton.runtime.driver.active.get_current_device()  # <-",
    ],
    "dynamic_import": [
        "_t = __import__('torch')  # <-",
        "torch.ops.load_library('/tmp/evil.so')  # <-",
    ],
    "eval_exec": [
        "exec('x = 1')  # <-",
        "def f(x):\n    return eval('x + 1')  # <-",
        "code = compile('1', 'f', 'eval')  # <-",
        "def f(x):\n    breakpoint()  # <-",
    ],
    "dunder_access": [
        "def f(x):\n    if type(x).__name__ == 'PosionDispatchTensor':  # <-\n        return x",
        "def f(x):\n    return f.__globals__  # <-",
        "def f(x, name):\n    return getattr(torch, name)  # <-",
        "g = globals()  # <-",
        "def f(frame):\n    return frame.f_back  # <-",
        "get = getattr  # <-",
        "pick = functools.reduce(getattr, ['cuda'], torch)  # <-",
        "__name__ = '__main__'  # <-",
        "import operator\nfetch = operator.attrgetter('__dict__')  # <-",
    ],
    "private_access": [
        "torch._C._set_grad_enabled(False)  # <-",
        "def f(x):\n    return x._version  # <-",
        "from torch.fx import _compatibility  # <-",
        "def f(x):\n    return getattr(torch, '_subclasses')  # <-",
    ],
    "monkeypatch": [
        "torch.cuda.synchronize = lambda: None  # <-",
        "torch.Tensor.__eq__ = lambda a, b: True  # <-",
        "setattr(torch, 'matmul', lambda a, b: a)  # <-",
        "lib = torch.library.Library('aten', 'IMPL')  # <-",
        "from torch import nn\nnn.functional.gelu = torch.relu  # <-",
        "@torch.library.register_kernel('aten::add.Tensor', 'cpu')  # <-\ndef fake_add(a, b):\n    return a",
        "del torch.nn.functional.softmax  # <-",
        "F = torch.nn.functional\nF.silu = torch.relu  # <-",
        "torch.backends.cuda.matmul.allow_tf32 = True  # <-",
        "T = type(torch.empty(0))\nT.add = lambda a, b: a  # <-",
    ],
    "compile_call": [
        "fast = torch.compile(pattern)  # <-",
        "torch._dynamo.reset()  # <-",
        "@torch.jit.script  # <-\ndef f(x):\n    return x",
        "from torch import compile as c  # <-",
        "torch.compiler.disable(pattern)  # <-",
    ],
    "timer_access": [
        "def f(x):\n    torch.cuda.synchronize()  # <-\n    return x",
        "start = torch.cuda.Event(enable_timing=True)  # <-",
        "t = triton.testing.do_bench(lambda: 0)  # <-",
        "cuda = torch.cuda\ndef f(x):\n    cuda.synchronize()  # <-\n    return x",
        "from torch import profiler  # <-",
        "mods = [torch.cuda]\ndef f(x):\n    mods[0].synchronize()  # <-\n    return x",
        "import triton.language as tl\n@triton.jit\ndef k(p):\n    t = tl.extra.cuda.globaltimer()  # <-",
        "import triton.language as tl\n@triton.jit\ndef k(p):\n    t = tl.inline_asm_elementwise('mov.u64 $0, %globaltimer;', '=l', [], dtype=tl.int64, is_pure=False, pack=1)  # <-",
    ],
    "thread_or_process": [
        "torch.set_num_threads(1)  # <-",
        "p = torch.multiprocessing.Process(target=pattern)  # <-",
        "from torch import distributed  # <-",
        "def f(x):\n    torch.set_num_interop_threads(2)  # <-\n    return x",
    ],
    "side_stream": [
        "s = torch.cuda.Stream()  # <-",
        "def f(x, s):\n    with torch.cuda.stream(s):  # <-\n        return x * 2",
        "def f(x, s):\n    x.record_stream(s)  # <-\n    return x",
        "g = torch.cuda.CUDAGraph()  # <-",
    ],
    "global_state": [
        "_last = None\ndef f(x):\n    global _last  # <-\n    _last = x\n    return x",
        "_cache = {}\ndef f(x):\n    _cache[x.shape] = x  # <-\n    return x",
        "_outs = []\ndef f(x):\n    _outs.append(x)  # <-\n    return x",
        "def f(x, _memo={}):  # <-\n    return x",
        "torch.manual_seed(0)  # <-",
        "def replacement_func():\n    seen = {}\n    def f(x):\n        seen.update(k=x)  # <-\n        return x\n    return f",
        "_buf = torch.empty(8)\ndef f(x):\n    _buf.copy_(x)  # <-\n    return _buf",
        "class R:\n    def __call__(self, x):\n        self.last = x  # <-\n        return x",
        "_buf = torch.empty(8)\ndef f(x):\n    return torch.add(x, 1, out=_buf)  # <-",
        "torch.set_float32_matmul_precision('medium')  # <-",
    ],
    "identity_cache": [
        "def f(x):\n    key = x.data_ptr()  # <-\n    return x",
        "def f(x):\n    return id(x)  # <-",
        "@functools.lru_cache(maxsize=None)  # <-\ndef f(x):\n    return x",
        "def f(x):\n    return x.untyped_storage()  # <-",
        "from functools import cache  # <-",
    ],
    "tensor_subclass": [
        "class Lazy(torch.Tensor):  # <-\n    pass",
        "class Mode:\n    def __torch_dispatch__(self, func, types, args, kwargs):  # <-\n        return func(*args)",
        "def f(x):\n    return x.as_subclass(torch.Tensor)  # <-",
        "class Lazy(type(torch.empty(0))):  # <-\n    pass",
    ],
    "file_or_network": [
        "data = open('/tmp/reference.pt', 'rb')  # <-",
        "ref = torch.load('/tmp/reference.pt')  # <-",
        "def f(x):\n    torch.save(x, '/tmp/out.pt')  # <-\n    return x",
    ],
}


def _marked_line(source: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if "# <-" in line)


CASES = [(rule, snippet) for rule, snippets in ADVERSARIAL.items() for snippet in snippets]


@pytest.mark.parametrize("rule,snippet", CASES, ids=[f"{r}-{i}" for i, (r, _s) in enumerate(CASES)])
def test_adversarial_source_is_flagged_with_its_rule_and_line(rule: str, snippet: str) -> None:
    source = PRELUDE + snippet + "\n"
    found = check_source(source, "adv.py")
    assert any(v.rule == rule and v.line == _marked_line(source) for v in found), found
    for v in found:
        assert v.path == "adv.py" and v.rule in RULES and "\n" not in v.message


def test_every_rule_has_an_adversarial_case() -> None:
    assert set(ADVERSARIAL) | {"strict_mode_torch_call", "unanalysable"} == set(RULES)


def test_messages_name_the_offending_name() -> None:
    (v,) = check_source("import torch\n\ndef f(x):\n    torch.cuda.synchronize()\n    return x\n")
    assert v == Violation("timer_access", v.message, "<pass>", 4)
    assert "torch.cuda.synchronize" in v.message


def test_deeply_nested_source_is_unanalysable_not_clean() -> None:
    source = "x = " + "(" * 180 + "1" + ")" * 180 + "\n" + "y = " + "-" * 5000 + "1\n"
    found = check_source(source)
    assert found == [] or found[0].rule == "unanalysable"


# --- strict mode -----------------------------------------------------------------------------

STRICT_SOURCE = '''
import torch
import torch.nn.functional as F


def pattern(a, b):
    return F.gelu(torch.matmul(a, b))


def replacement_args(a, b):
    return (a, b)


@torch.fx.wrap
def fused(a, b):
    out = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    out.copy_(torch.matmul(a, b))  # <- strict
    return F.gelu(out)  # <- strict


def replacement_func():
    return fused
'''


def test_strict_mode_flags_torch_ops_in_the_replacement_not_in_the_pattern() -> None:
    assert check_source(STRICT_SOURCE, mode=Mode.PERMISSIVE) == []
    found = check_source(STRICT_SOURCE, mode=Mode.STRICT)
    lines = [i for i, ln in enumerate(STRICT_SOURCE.splitlines(), 1) if "# <- strict" in ln]
    assert {v.rule for v in found} == {"strict_mode_torch_call"}
    assert sorted({v.line for v in found}) == lines
    messages = " ".join(v.message for v in found)
    assert "torch.matmul" in messages and "torch.nn.functional.gelu" in messages and ".copy_()" in messages


def test_strict_mode_flags_returning_a_torch_op_as_the_replacement() -> None:
    source = "import torch\n\ndef pattern(x):\n    return x.relu()\n\ndef replacement_args(x):\n    return (x,)\n\ndef replacement_func():\n    return torch.relu\n"
    assert check_source(source) == []
    assert [(v.rule, v.line) for v in check_source(source, mode=Mode.STRICT)] == [("strict_mode_torch_call", 10)]


def test_strict_mode_flags_aten_ops_but_not_custom_ops() -> None:
    source = "import torch\n\ndef f(x):\n    y = torch.ops.mylib.fused(x)\n    return torch.ops.aten.mm.default(y, y)\n"
    assert [(v.rule, v.line) for v in check_source(source, mode=Mode.STRICT)] == [("strict_mode_torch_call", 5)]


# --- pass_dir --------------------------------------------------------------------------------


def test_check_pass_reports_each_rule_file_of_a_pass_dir(tmp_path: Path) -> None:
    (tmp_path / "Good.py").write_text((EXAMPLES / "b511_skip_single_cat.py").read_text())
    (tmp_path / "Bad.py").write_text(textwrap.dedent("""\
        import torch
        _seen = {}


        def pattern(x):
            return torch.cat([x], 1)


        def replacement_args(x):
            return (x,)


        def cached(x):
            key = x.data_ptr()
            if key not in _seen:
                _seen[key] = x.clone()
            return _seen[key]


        def replacement_func():
            return cached
        """))
    (tmp_path / "sorted_output_pass_rule_names.json").write_text(json.dumps(["Good", "Bad"]))
    found = check_pass(tmp_path)
    assert [(v.rule, Path(v.path).name, v.line) for v in found] == [
        ("identity_cache", "Bad.py", 14), ("global_state", "Bad.py", 16)]


# --- indirection and hidden state: names reached by strings, state kept without assignment ----------

INDIRECTION = [
    # A module attribute reached by a string: torch.set_num_threads past the name tables.
    ("import operator\nimport torch\noperator.attrgetter('set_num_threads')(torch)(1)\n", "dunder_access"),
    ("from operator import methodcaller\nimport torch\nmethodcaller('use_deterministic_algorithms', True)(torch)\n",
     "dunder_access"),
    ("import operator\nimport torch\nget = operator.attrgetter\nget('backends.mkldnn.set_flags')(torch)(False)\n", "dunder_access"),
    # State across calls without an assignment the assignment rules see.
    ("import operator\nCACHE = {}\ndef f(x):\n    operator.setitem(CACHE, 0, x)\n    return x\n", "global_state"),
    ("import itertools\nN = itertools.count()\ndef f(x):\n    return x\n", "global_state"),
    ("def gen():\n    while True:\n        yield 1\nG = gen()\ndef f(x):\n    return x * next(G)\n", "global_state"),
]


@pytest.mark.parametrize("source, rule", INDIRECTION, ids=["attrgetter", "methodcaller", "aliased_getter", "setitem",
                                                            "count", "generator"])
def test_indirection_and_hidden_state_are_flagged(source: str, rule: str) -> None:
    rules = {v.rule for v in check_source(source, "adv.py")}
    assert rule in rules, rules


def test_local_iteration_is_not_state() -> None:
    source = "import itertools\ndef f(xs):\n    it = iter(xs)\n    first = next(it)\n    return [first, *itertools.chain(it)]\n"
    assert check_source(source, "ok.py") == []


def test_a_dunder_import_alias_is_refused_not_a_crash() -> None:
    """``import math as __m__`` binds a dunder name: refused as ``dunder_access`` (the checker
    promises never to raise; the scope pass once did, on any import alias of this form)."""
    found = check_source("import math as __m__\nimport torch\n")
    assert [(v.rule, v.line) for v in found] == [("dunder_access", 1)]
