import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = in_0.expand(4, -1, 64, 64);  in_0 = None
        tmp_1 = in_1 + 2;  in_1 = None
        tmp_2 = torch.nn.functional.embedding(tmp_1, in_2, None, None, 2.0, False, False);  tmp_1 = in_2 = None
        tmp_3 = tmp_2.to(device(type='cpu'));  tmp_2 = None
        tmp_4 = in_3 + tmp_3;  in_3 = tmp_3 = None
        tmp_5 = torch.nn.functional.layer_norm(tmp_4, (768,), in_4, in_5, 1e-05);  in_4 = in_5 = None
        return (tmp_0, tmp_4, tmp_5)

