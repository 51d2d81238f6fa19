# A pass in PassNet's format for task_004 (batch_norm -> in_5 += -> relu -> adaptive_avg_pool2d):
# the replacement is a plain wrapper around a @torch.fx.wrap launcher that returns every output, the
# residual's in-place sum included (eager writes it into in_5, and the evaluation compares it).
import torch


def pattern(in_0, in_1, in_2, in_3, in_4, in_5):
    tmp_0 = torch.nn.functional.batch_norm(in_0, in_1, in_2, in_3, in_4, False, 0.1, 1e-05)
    in_5 += tmp_0
    tmp_1 = in_5
    tmp_2 = torch.nn.functional.relu(tmp_1, inplace=False)
    tmp_3 = torch.nn.functional.adaptive_avg_pool2d(tmp_2, (1, 1))
    return (tmp_1, tmp_2, tmp_3)


def replacement_args(in_0, in_1, in_2, in_3, in_4, in_5):
    return (in_0, in_1, in_2, in_3, in_4, in_5)


@torch.fx.wrap
def bn_add_relu_pool(x, mean, var, weight, bias, residual):
    c = (None, slice(None), None, None)
    s = (x - mean[c]) * torch.rsqrt(var + 1e-05)[c] * weight[c] + bias[c] + residual
    y = torch.relu(s)
    return s, y, y.mean(dim=(2, 3), keepdim=True)


def fused_bn_add_relu_pool(x, mean, var, weight, bias, residual):
    return bn_add_relu_pool(x, mean, var, weight, bias, residual)


def replacement_func():
    return fused_bn_add_relu_pool
