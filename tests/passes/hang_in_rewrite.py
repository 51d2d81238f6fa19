"""Never returns while its replacement is traced: the worker hangs compiling the candidate."""
import time

import torch


def pattern(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_args(x):
    return (x,)


def stuck(x):
    while True:
        time.sleep(1)


def replacement_func():
    return stuck
