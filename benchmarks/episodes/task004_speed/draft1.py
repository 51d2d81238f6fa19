# Draft 1: correct, one fused function for batch_norm + residual + relu + pool (the episode's best).
import torch


def pattern(in_0, in_1, in_2, in_3, in_4, in_5):
    tmp_0 = torch.nn.functional.batch_norm(in_0, in_1, in_2, in_3, in_4, False, 0.1, 1e-05)
    in_5 += tmp_0
    tmp_1 = in_5
    tmp_2 = torch.nn.functional.relu(tmp_1, inplace=False)
    tmp_3 = torch.nn.functional.adaptive_avg_pool2d(tmp_2, (1, 1))
    return (tmp_1, tmp_2, tmp_3)  # the residual's in-place sum too: eager writes it into in_5


def replacement_args(in_0, in_1, in_2, in_3, in_4, in_5):
    return (in_0, in_1, in_2, in_3, in_4, in_5)


@torch.fx.wrap
def bn_add_relu_pool(x, mean, var, weight, bias, residual):
    c = (None, slice(None), None, None)
    # As batch_norm computes it: (x - mean) / sqrt(var + eps) * weight + bias.
    norm = (x - mean[c]) * torch.rsqrt(var + 1e-05)[c]
    s = norm * weight[c] + bias[c] + residual
    y = torch.relu(s)
    return s, y, y.mean(dim=(2, 3), keepdim=True)


def fused_bn_add_relu_pool(x, mean, var, weight, bias, residual):
    return bn_add_relu_pool(x, mean, var, weight, bias, residual)


def replacement_func():
    return fused_bn_add_relu_pool
