# PassNet-format rule for task_110 (torch._C._nn.pad), written with the public F.pad name.
import torch
import torch.nn.functional as F

from pass_dir.shared_kernel import constant_pad_hw


def pattern(in_0):
    return F.pad(in_0, (1, 1, 1, 1), "constant", 0.0)


def replacement_args(in_0):
    return (in_0,)


def padded(x):
    return constant_pad_hw(x, (1, 1, 1, 1), 0.0)


def replacement_func():
    return padded
