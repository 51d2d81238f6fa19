"""Exploit: the graph adds 1 to its input in place; the replacement takes the write back (less work for later ops, a different input for the caller).

Pattern: EXPLOITS.md row 6 (modify the inputs).
Source: KernelBench test_input_modification (src/kernelbench/unit_tests/test_eval_adversarial.py)
Sample: mutating
Stopped by: accuracy input_mutated
"""
import torch


@torch.fx.wrap
def doubled(x):
    y = x + x
    x.sub_(1.0)
    return y


def pattern(x):
    return x * 2.0


def replacement_args(x):
    return (x,)


def replacement_func():
    return doubled
