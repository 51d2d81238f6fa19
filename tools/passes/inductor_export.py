"""A pass as an Inductor-native ``CustomGraphPass``: no passagent backend needed at compile time.

``passagent export-pass BEST_PASS --as inductor -o my_pass`` writes a folder that is both a
PassNet ``pass_dir/`` (the rule files and their order) and an importable Python package::

    from my_pass import make_pass
    compiled = torch.compile(model, options={"pre_grad_custom_pass": [make_pass()]})

Where it hooks in, and why:

* **Pre-grad, not post-grad.** A pass's patterns are torch-level code (``F.normalize``,
  ``torch.cat``), matched against the FX graph Dynamo captures. Inductor's
  ``pre_grad_custom_pass`` receives that same torch-IR graph; the post-grad graph holds
  decomposed, functionalised ATen ops (``aten.linalg_vector_norm.default``...) where such a
  pattern can never match (``torch/_inductor/config.py``: "the pre-grad IR is non-functional,
  non-normalized"; post-grad passes see ATen). Registered at a post-grad hook by mistake, the
  pass raises :class:`WrongGraphLevel` instead of silently matching nothing.
* **A stable ``uuid()`` from source.** It is the SHA-256 of the rule files (names and bytes)
  and of the passagent modules that apply them (this file, ``rewrite.py``, ``triton_ops.py``,
  ``passes.py``), computed when the pass is made. Inductor then runs a pre-grad pass with a
  uuid *after* its cache lookup and puts the uuid in the key (``resolve_pre_grad_pass_timing``
  and ``FxGraphHashDetails`` in ``torch/_inductor/codecache.py``), so an edited pass is
  never a stale cache hit and two different passes never share an entry; a pass without a
  uuid would be run before the lookup with caching bypassed.
* **Per compile, composable.** ``torch.compile(..., options=...)`` patches Inductor's config
  for that compile only, so the pass never leaks into other compiles, and several passes are
  given in order (a list where Inductor takes one, else one pass running each in turn:
  ``tools.passes.backend.compose_passes``), so they compose instead of the
  last assignment to the global ``torch._inductor.config.pre_grad_custom_pass`` overwriting
  the others. :func:`inductor_options` builds that dict, keeping passes already configured.

Rules whose replacement launches Triton kernels are registered as custom operators exactly as
the harness does (:mod:`.triton_ops`), from the fake tensors Dynamo recorded on the graph's inputs.
"""

from __future__ import annotations

import hashlib
import json
import operator
import re
import shutil
from pathlib import Path
from typing import Any

import torch
import torch.fx
from torch._inductor.custom_graph_pass import CustomGraphPass

from .backend import compose_passes, custom_pass_list
from .compose import composed_pass_dir, pass_label
from ..errors import PassLoadError
from .rules import RULE_LIST_FILE, PassRule, load_rules, pass_digest, pass_files
from .rewrite import RuleApplication, apply_rules
from .triton_ops import TRITON_ATTR, register_triton_replacements

_ENGINE_FILES = ("inductor_export.py", "rewrite.py", "triton_ops.py", "rules.py")


class WrongGraphLevel(RuntimeError):
    """The pass was given a graph it cannot rewrite: a post-grad (ATen) graph, where its
    torch-level rules never match, or a graph without a module."""


def engine_digest() -> str:
    """SHA-256 of the passagent source that applies an exported pass (part of its uuid)."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _ENGINE_FILES:
        h.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
    return h.hexdigest()


def _is_aten_graph(graph: torch.fx.Graph) -> bool:
    """Every operator call is an ATen ``OpOverload`` (a post-grad graph); Dynamo's graph calls
    torch functions (``torch.relu``, ``F.linear``) instead."""
    ops = [n for n in graph.nodes if n.op == "call_function" and n.target not in (getattr, operator.getitem)]
    return bool(ops) and all(isinstance(n.target, torch._ops.OpOverload) for n in ops)


class RewritePass(CustomGraphPass):
    """A passagent pass as Inductor's ``pre_grad_custom_pass``.

    Attributes:
        pass_dir: the exported folder (a PassNet ``pass_dir/``).
        rules: the loaded rules, applied in the rule list's order.
        applications: per graph the pass ran on, one :class:`.rewrite.RuleApplication` per rule.
        triton_ops: custom operators registered for Triton replacements.

    Raises (on construction):
        PassLoadError, RuleLoadFailure: the folder's rule list or a rule file is broken.
    """

    def __init__(self, pass_dir: str | Path):
        self.pass_dir = Path(pass_dir)
        digest = pass_digest(self.pass_dir)
        self.rules: list[PassRule] = load_rules(self.pass_dir, digest)
        self._uuid = f"passagent-pre-grad-{hashlib.sha256((digest + engine_digest()).encode()).hexdigest()}"
        self.applications: list[list[RuleApplication]] = []
        self.triton_ops: list[str] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> "RewritePass":
        # torch.compile(options=...) deep-copies Inductor's config (``get_config_copy``); the
        # rules hold imported modules, which cannot be copied, and a copy would also lose the
        # match record. The pass is immutable apart from that record: share it.
        return self

    def uuid(self) -> str:
        """``passagent-pre-grad-<sha256 of the rule sources and of the applying code>``."""
        return self._uuid

    def __call__(self, graph: torch.fx.Graph) -> None:
        gm = graph.owning_module
        if gm is None:
            raise WrongGraphLevel("the graph has no owning GraphModule; Inductor's pre-grad hook always gives one")
        if _is_aten_graph(graph):
            raise WrongGraphLevel(
                f"{type(self).__name__} got a post-grad ATen graph: its rules match Dynamo's torch-level graph; "
                "register it as pre_grad_custom_pass, not post_grad_custom_pre_pass/post_pass"
            )
        self.applications.append(apply_rules(gm, self.rules))
        # Dynamo records a fake tensor per input as "example_value"; Triton leaves need them.
        inputs = [n.meta.get("example_value", n.meta.get("val")) for n in graph.nodes if n.op == "placeholder"]
        if any(hasattr(n.target, TRITON_ATTR) for n in graph.nodes if n.op == "call_function"):
            self.triton_ops.extend(register_triton_replacements(gm, inputs))

    def matches_by_rule(self) -> dict[str, int]:
        """Matches per rule name, summed over the graphs the pass ran on."""
        out = {r.name: 0 for r in self.rules}
        for graph in self.applications:
            for a in graph:
                out[a.rule] += a.matches
        return out


def inductor_options(*passes: CustomGraphPass, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``torch.compile`` ``options=`` running ``passes`` (in order) after any pre-grad passes
    already in ``options`` or in the global config (which is read, never changed)."""
    import torch._inductor.config as inductor_config

    out = dict(options or {})
    current = out.get("pre_grad_custom_pass", inductor_config.pre_grad_custom_pass)
    out["pre_grad_custom_pass"] = compose_passes([*custom_pass_list(current), *passes])
    return out


_INIT_TEMPLATE = '''"""{title}: a passagent pass as an Inductor pre-grad CustomGraphPass.

Exported by ``passagent export-pass --as inductor`` from {sources}.
Rules, applied in this order: {rules}.

    import torch
    from {package} import make_pass
    compiled = torch.compile(model, options={{"pre_grad_custom_pass": [make_pass()]}})

This folder is also a PassNet pass_dir (``{rule_list}`` lists the rules): ``passagent eval``,
``apply`` and ``coverage`` take it as it is. Editing a rule file changes ``uuid()``, so
Inductor's caches never return a graph compiled with the old rule.
"""

from pathlib import Path

from passagent.tools.passes.inductor_export import RewritePass

PASS_DIR = Path(__file__).resolve().parent


class {cls}(RewritePass):
    """The exported pass; ``uuid()`` is the SHA-256 of its rule files and of passagent's rewrite code."""


def make_pass() -> {cls}:
    """A new instance, loading the rule files as they are now."""
    return {cls}(PASS_DIR)
'''


def _class_name(label: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", label) or ["Exported"]
    name = "".join(w[:1].upper() + w[1:] for w in words) + "Pass"
    return name if name[0].isalpha() else f"P{name}"


def export_inductor(passes: list[str | Path], out_dir: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``passes`` (composed in order) as an importable folder with a ``CustomGraphPass``.

    Args:
        passes: pass files or ``pass_dir/`` folders.
        out_dir: the folder to create; its name must be a Python identifier (it is imported).
        overwrite: replace an existing folder.

    Returns:
        ``out_dir``.

    Raises:
        PassLoadError: a pass path or rule list is broken, ``out_dir`` exists (without
            ``overwrite``) or its name is not an identifier.
    """
    out = Path(out_dir)
    if not out.name.isidentifier():
        raise PassLoadError(f"{out}: the export is imported by its folder name, which must be a Python identifier")
    if out.exists():
        if not overwrite:
            raise PassLoadError(f"{out}: already exists (pass --overwrite to replace it)")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tmp = out / "_compose"
    src = composed_pass_dir(passes, tmp)
    for name, file in pass_files(src):
        shutil.copyfile(file, out / f"{name}.py")
    names = [n for n, _f in pass_files(src)]
    (out / RULE_LIST_FILE).write_text(json.dumps(names, indent=1) + "\n")
    shutil.rmtree(tmp, ignore_errors=True)
    label = "_".join(pass_label(Path(p)) for p in passes)
    (out / "__init__.py").write_text(_INIT_TEMPLATE.format(
        title=label, sources=", ".join(str(p) for p in passes), rules=", ".join(names),
        package=out.name, rule_list=RULE_LIST_FILE, cls=_class_name(label),
    ))
    return out
