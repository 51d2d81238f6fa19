import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.silu(in_0);  in_0 = None
        tmp_1 = torch.nn.functional.linear(in_1, in_2, None);  in_1 = in_2 = None
        tmp_2 = tmp_0 * tmp_1;  tmp_0 = tmp_1 = None
        return (tmp_2,)

