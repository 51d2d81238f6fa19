import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor):
        tmp_0 = in_0.to(device = device(type='cpu'), dtype = torch.float32);  in_0 = None
        tmp_1 = in_1 * tmp_0;  in_1 = tmp_0 = None
        tmp_2 = torch.cat((tmp_1, tmp_1), dim = -1);  tmp_1 = None
        tmp_3 = tmp_2.cos()
        tmp_4 = tmp_3 * 1.0;  tmp_3 = None
        tmp_5 = tmp_2.sin();  tmp_2 = None
        tmp_6 = tmp_5 * 1.0;  tmp_5 = None
        return (tmp_4, tmp_6)

