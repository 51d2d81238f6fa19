import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.embedding(in_0, in_1, None, None, 2.0, False, False);  in_0 = in_1 = None
        tmp_1 = in_2.to(device = device(type='cpu'), dtype = torch.bool);  in_2 = None
        return (tmp_0, tmp_1)

