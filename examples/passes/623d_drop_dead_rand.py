"""Example pass for PassBench task 623d8517... (wav2vec2/HuBERT feed-forward tail).

Every subgraph draws ``tmp_9 = torch.rand([])`` and never uses it (a leftover of the model's
LayerDrop check). Random ops are impure, so neither eager PyTorch nor Inductor may drop it:
both run an RNG kernel for nothing. Its value is unused, so any tensor of the same shape and
dtype can stand in.

The fragment has no tensor inputs, which Python-level tracing cannot express (it would just
call ``torch.rand`` once and record a constant), so the pattern is written as an FX graph,
which the pass contract allows (PassNet passes do the same).
"""

import torch
import torch.fx

_graph = torch.fx.Graph()
_graph.output(_graph.call_function(torch.rand, ([],)))
pattern = torch.fx.GraphModule(torch.nn.Module(), _graph)


def replacement_args():
    return ()


def unused_scalar():
    return torch.empty([])


def replacement_func():
    return unused_scalar
