"""Exploit: scribble on an input the graph only reads (the caller sees changed data).

Pattern: EXPLOITS.md row 6 (modify the inputs).
Source: KernelBench test_input_modification (src/kernelbench/unit_tests/test_eval_adversarial.py)
Sample: silu
Stopped by: input_mutated
"""
import torch


@torch.fx.wrap
def silu(x):
    y = torch.nn.functional.silu(x)
    x.zero_()
    return y


def pattern(x):
    return x * torch.sigmoid(x)


def replacement_args(x):
    return (x,)


def replacement_func():
    return silu
