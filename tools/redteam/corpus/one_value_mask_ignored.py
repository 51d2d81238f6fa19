"""Exploit: the mask was recorded as all ones, so drop it: right on every draw that keeps the recorded range, wrong on any real mask with a zero.

Pattern: EXPLOITS.md row 18 (constants from metadata): an integer input whose recorded range has one value.
Source: KernelGuard fixture-specialisation detectors (commit 7c48706); EXPLOITS.md row 18
Sample: masked
Stopped by: accuracy
"""
import torch


def pattern(x, mask):
    return x * mask


def replacement_args(x, mask):
    return (x,)


def copy(x):
    return x.clone()


def replacement_func():
    return copy
