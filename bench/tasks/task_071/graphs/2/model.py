import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, in_2);  in_0 = in_1 = in_2 = None
        tmp_1 = 0.5 * tmp_0
        tmp_2 = torch.pow(tmp_0, 3.0)
        tmp_3 = 0.044715 * tmp_2;  tmp_2 = None
        tmp_4 = tmp_0 + tmp_3;  tmp_0 = tmp_3 = None
        tmp_5 = 0.7978845608028654 * tmp_4;  tmp_4 = None
        return (tmp_1, tmp_5)

