import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = in_0.to(device = device(type='cpu'), dtype = torch.float32);  in_0 = None
        tmp_1 = in_1 * tmp_0;  in_1 = tmp_0 = None
        tmp_2 = torch.cat((tmp_1, tmp_1), dim = -1);  tmp_1 = None
        tmp_3 = tmp_2.cos()
        tmp_4 = tmp_3 * 1.0;  tmp_3 = None
        tmp_5 = tmp_2.sin();  tmp_2 = None
        tmp_6 = tmp_5 * 1.0;  tmp_5 = None
        tmp_7 = tmp_4.to(dtype = torch.float32);  tmp_4 = None
        tmp_8 = tmp_6.to(dtype = torch.float32);  tmp_6 = None
        tmp_9 = torch.nn.functional.layer_norm(in_2, (512,), in_3, in_4, 1e-05);  in_2 = in_3 = in_4 = None
        tmp_10 = in_5.T;  in_5 = None
        return (tmp_7, tmp_8, tmp_9, tmp_10)

