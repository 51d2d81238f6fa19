"""The recipe catalogue of the built-in offline policy: a deterministic expert that reads a
subgraph's IR and proposes concrete pass rules, instantiated for the graph it read.

Every draft is a complete pass file obeying the pass contract (``pattern``,
``replacement_args``, ``replacement_func``). Its pattern is copied node by node from the
Dynamo FX graph (same call spelling, same literals, method vs function form), with literals
that vary between subgraphs of a task (dropout ``p``, a cat's ``dim``, an attention scale,
convolution hyper-parameters) lifted into pattern inputs; and it is checked with torch.fx's
own matcher against the graph before it is proposed, so a draft always matches the graph it
was written for.

Every recipe belongs to one rewrite family (:data:`FAMILIES`): ``generated kernel`` (one Triton
kernel written from the graph, :mod:`.triton_gen`; CUDA only), ``library form`` (a fused or
better-suited library operator: SDPA, ``addmm`` with an activation epilogue, ``F.layer_norm``...)
and ``simplification`` (no-op removal, cancelling permutes, dead RNG...).

Catalogue order is priority order, and also the order in which rules should be applied when
several are combined into one ``pass_dir``: larger fragments come before rules that would
consume part of them (the attention pattern contains its eval-mode dropout). The
last recipes (``changes_aten=False``) clean up what tracing to ATen drops anyway (eval-mode
dropout, dead values, no-op casts): the harness flags a pass made only of those as
``no_change``, so a policy should evaluate them together with at least one other rule.
"""

from __future__ import annotations

import logging
from typing import Any

import dataclasses

from . import attention, cleanup, folding, fusions, gemm_forms, lowerings, norm_forms, triton_gen
from .drafts import FAMILIES, Recipe, RuleDraft, labelled
from .fx_reader import read_graphs

__all__ = ["CATALOGUE", "FAMILIES", "Recipe", "RuleDraft", "propose_rules"]
_log = logging.getLogger(__name__)

CATALOGUE: list[Recipe] = [
    Recipe("generated_kernel", "a connected chain of elementwise ops (+ row reductions over the last dim) -> one "
           "generated Triton kernel, float32 inside", triton_gen.generated_kernels, family="generated kernel",
           cuda_only=True),
    Recipe("sdpa_attention", "softmax(q @ k^T * scale [+ mask], -1) [eval dropout] @ v -> F.scaled_dot_product_attention",
           attention.attention, family="library form"),
    Recipe("softmax_matmul", "softmax(s, -1) [eval dropout] @ v -> (exp(s - max) @ v) / sum(exp(s - max)) (half: "
           "eager's probabilities, the GEMM in float32)", gemm_forms.softmax_matmul, family="library form"),
    Recipe("gelu_tanh", "0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))) -> F.gelu(x, approximate='tanh')", fusions.gelu_tanh, family="library form"),
    Recipe("gelu_erf", "0.5*x*(1+erf(x/sqrt(2))) -> F.gelu(x)", fusions.gelu_erf, family="library form"),
    Recipe("layer_norm", "hand-written mean/var/sqrt/div [*weight +bias] over the last dim -> F.layer_norm", fusions.layer_norm, family="library form"),
    Recipe("rms_norm", "x * rsqrt(mean(x^2, -1) + eps) [*weight] -> F.rms_norm", fusions.rms_norm, family="library form"),
    Recipe("layer_norm_linear", "linear(layer_norm(x, g, beta), W, c) -> linear(xhat, W * g, W @ beta + c) (half: "
           "eager's LayerNorm, the GEMM in float32)", gemm_forms.layer_norm_linear, family="library form"),
    Recipe("conv_bn_fold", "eval-mode batch_norm(conv(x)) -> one conv with folded weight and bias (half: in float32)", fusions.conv_bn_fold, family="library form"),
    Recipe("silu", "x * sigmoid(x) -> F.silu(x)", fusions.silu, family="library form"),
    Recipe("linear_epilogue", "relu(linear(x, w, b)) -> torch._addmm_activation (GEMM with a fused ReLU epilogue)",
           fusions.linear_epilogue, family="library form"),
    Recipe("gemm_scale", "matmul(a, b) * c (or / c, c a number) -> one baddbmm/addmm with alpha=c, beta=0",
           fusions.gemm_scale, family="library form"),
    Recipe("global_avg_pool", "adaptive_avg_pool2d(x, (1, 1)) -> x.mean((-2, -1), keepdim=True)", fusions.global_avg_pool, family="library form"),
    Recipe("merged_mean", "x.mean(a, keepdim=True).mean(b, keepdim=True) -> x.mean((a, b), keepdim=True) (half: in float32)",
           fusions.merged_mean, family="library form"),
    # Another decomposition of an op Inductor decomposes itself, doing less work per element
    # (the measurement decides): after the fusions above, which consume some of these ops.
    Recipe("linear_split_bias", "linear(x, W, b) -> linear(x, W) + b (the bias in the next pointwise kernel, not "
           "the GEMM's accumulator; half: the GEMM in float32)", gemm_forms.linear_split_bias, family="library form"),
    Recipe("layer_norm_two_pass", "F.layer_norm over the last dim -> mean, then mean((x - mean)^2): two sums "
           "instead of a Welford var_mean (half: in float32)", norm_forms.layer_norm_two_pass, family="library form"),
    Recipe("group_norm_two_pass", "F.group_norm -> per group: mean, then mean((x - mean)^2) (half: in float32)",
           norm_forms.group_norm_two_pass, family="library form"),
    Recipe("conv_split_bias", "conv1d/conv2d(x, W, b) -> conv(x, W) + b per channel (half: in float32)",
           gemm_forms.conv_split_bias, family="library form"),
    Recipe("sdpa_math", "F.scaled_dot_product_attention -> softmax(q @ k^T * scale [+ mask]) @ v written out "
           "(half: in float32)", attention.sdpa_math, family="library form"),
    Recipe("batch_norm_affine", "eval F.batch_norm -> x * a + c with a, c per channel (half: in float32)",
           norm_forms.batch_norm_affine, family="library form"),
    Recipe("softmax_reciprocal", "softmax(x, d) -> exp(x - max) * (1 / sum) (half: in float32)",
           norm_forms.softmax_reciprocal, family="library form"),
    # Another lowering of a lone op, for graphs with nothing to fuse (the measurement decides).
    Recipe("relu_select", "relu(x) -> where(x < 0, 0, x) (a compare and select instead of a max)",
           lowerings.relu_select, family="library form"),
    Recipe("cat_padded_sum", "torch.cat((a, b), d) -> pad(a) + pad(b) (one pointwise kernel with masked loads)",
           lowerings.cat_padded_sum, family="library form"),
    Recipe("linear_no_bias", "linear(x, W) -> bmm(rows of x, W^T) (float16: the GEMM in float32)",
           gemm_forms.linear_no_bias, family="library form"),
    # Last resorts: proposed only for a task no other ATen-changing form applies to (expect parity).
    Recipe("neg_as_mul", "-x -> x * -1", lowerings.neg_as_mul, family="library form", last_resort=True),
    Recipe("gelu_written_out", "F.gelu(x) -> 0.5 * x * (1 + erf(x / sqrt(2))) (half: in float32)",
           lowerings.gelu_written_out, family="library form", last_resort=True),
    Recipe("embedding_as_index", "F.embedding(idx, W) without max_norm -> W[idx]", lowerings.embedding_as_index,
           family="library form", last_resort=True),
    Recipe("cat_repeat_unary", "f(torch.cat((t, t), dim)) for elementwise f (cos, sin...) -> torch.cat((f(t), f(t)), dim)",
           cleanup.cat_repeat_unary),
    Recipe("single_cat", "torch.cat([x], dim) -> x where nothing writes to either", cleanup.single_cat),
    Recipe("cancel_transpose", "x.transpose(a, b).transpose(a, b) / permute then its inverse -> x", cleanup.cancel_transpose),
    Recipe("redundant_clone", ".clone() of a value nothing writes to, not returned -> x", cleanup.redundant_clone),
    Recipe("dead_random", "a random draw nothing uses, in a graph with no other random op -> an empty tensor",
           cleanup.dead_random),
    # Tracing to ATen keeps `aten.mul(x, 1)` and a same-shape `aten.view` (Inductor removes them
    # only after lowering, torch/_inductor/fx_passes/post_grad.py `remove_noop_ops`), so these
    # change the graph Inductor receives and can be evaluated alone; expect parity with Inductor.
    Recipe("scalar_identity", "x * 1, x / 1, x + 0, x - 0, x ** 1 of a float tensor -> x", folding.scalar_identity),
    Recipe("identity_reshape", "x.view(s) / x.reshape(s) to the shape x has -> x", folding.identity_reshape),
    # Clean-ups of what lowering to ATen drops anyway: only useful next to a rule above.
    Recipe("dead_code", "a pure op chain whose result nothing uses -> an empty placeholder value", cleanup.dead_code,
           changes_aten=False),
    Recipe("eval_dropout", "dropout(x, p, training=False) -> x, for any p", cleanup.eval_dropout, changes_aten=False),
    Recipe("redundant_cast", ".to(dtype) / .float() of a tensor already of that dtype, .contiguous() of a fresh result -> x",
           cleanup.noop_conversions, changes_aten=False),
]


def propose_rules(ir: dict[str, Any], device: str = "cpu") -> list[RuleDraft]:
    """All drafts from all recipes for this subgraph IR, in catalogue priority order, deduplicated by source.

    Args:
        ir: the dict of :func:`passagent.tools.inspection.ir.inspect_subgraph` (``fx_code`` and ``fx_nodes``
            are what is read).
        device: where the pass will run; recipes whose replacements launch Triton kernels
            (``cuda_only``) propose nothing unless it is a CUDA device.

    Returns:
        Drafts with distinct ``rule_name`` values (a repeated name gets ``_2``, ``_3``...), so any
        subset can be written side by side into one ``pass_dir``.
    """
    graphs = read_graphs(ir)
    seen: set[str] = set()
    names: dict[str, int] = {}
    out: list[RuleDraft] = []
    for recipe in CATALOGUE:
        if recipe.cuda_only and not device.startswith("cuda"):
            continue
        for g in graphs:
            try:
                found = recipe.find(g)
            except Exception:  # noqa: BLE001 - one recipe tripping on an odd graph must not stop the others
                _log.warning("recipe %s failed on a graph; skipped", recipe.name, exc_info=True)
                continue
            for d in found:
                if d.source in seen:
                    continue
                seen.add(d.source)
                names[d.rule_name] = names.get(d.rule_name, 0) + 1
                if names[d.rule_name] > 1:
                    d = dataclasses.replace(d, rule_name=f"{d.rule_name}_{names[d.rule_name]}")
                out.append(labelled(d, recipe.family))
    return out


def generated_kernel_candidate(task: Any) -> list[RuleDraft]:
    """The policy's first generated-kernel candidate for a loaded ``task``: the rule drafts of the
    first group of dtype variants of one kernel (one rule file per dtype), proposed for CUDA from
    each subgraph's Dynamo FX IR; empty where no generated-kernel recipe matches.

    Reads every subgraph's graph on the CPU (nothing runs on a GPU). Raises what building a
    subgraph's module or tracing it raises (a broken task).
    """
    import torch

    from ...tools.evaluation.steps import build_module
    from ...tools.inspection.ir import dynamo_fx_ir
    from ...tools.tasks.inputs import synthesize_inputs
    from .triton_gen import dtype_variant_groups

    drafts: list[RuleDraft] = []
    seen: set[str] = set()
    for sg in task.subgraphs:
        module = build_module(sg, torch.device("cpu"), "t")
        ir = dynamo_fx_ir(module, synthesize_inputs(sg, 0, device=torch.device("cpu")), name=sg.name)
        for d in propose_rules(ir, "cuda"):
            if d.family == "generated kernel" and d.source not in seen:
                seen.add(d.source)
                drafts.append(dataclasses.replace(d, rule_name=f"{d.rule_name}_{len(drafts)}" if drafts else d.rule_name))
    groups = dtype_variant_groups(drafts)
    return list(groups[0]) if groups else []
