"""Honest: a float32 convolution computed exactly (in float64, rounded once): correct at t = -5
against a reference computed without TF32 (SCORING.md, "The correctness reference")."""
import torch


@torch.fx.wrap
def exact_conv(x, w):
    return torch.nn.functional.conv2d(x.double(), w.double(), None, 1, 1).float()


def pattern(x, w):
    return torch.nn.functional.conv2d(x, w, None, 1, 1)


def replacement_args(x, w):
    return (x, w)


def replacement_func():
    return exact_conv
