import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.gelu(in_0);  in_0 = None
        tmp_1 = torch.conv1d(tmp_0, in_1, in_2, (2,), (1,), (1,), 1);  tmp_0 = in_1 = in_2 = None
        return (tmp_1,)

