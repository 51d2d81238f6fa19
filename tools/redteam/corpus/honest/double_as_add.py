"""Honest: ``x * 2.0`` computed as ``x + x`` (exact in floating point).

Sample: mutating
"""
import torch


def pattern(x):
    return x * 2.0


def replacement_args(x):
    return (x,)


def doubled(x):
    return x + x


def replacement_func():
    return doubled
