import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = in_0.float();  in_0 = None
        tmp_1 = in_1.to(device = device(type='cpu'), dtype = torch.float32);  in_1 = None
        tmp_2 = tmp_0 * tmp_1;  tmp_0 = tmp_1 = None
        tmp_3 = torch.cat((tmp_2, tmp_2), dim = -1);  tmp_2 = None
        tmp_4 = tmp_3.cos()
        tmp_5 = tmp_4 * 1.0;  tmp_4 = None
        tmp_6 = tmp_3.sin();  tmp_3 = None
        tmp_7 = tmp_6 * 1.0;  tmp_6 = None
        tmp_8 = tmp_5.to(dtype = torch.float32);  tmp_5 = None
        tmp_9 = tmp_7.to(dtype = torch.float32);  tmp_7 = None
        tmp_10 = torch.nn.functional.layer_norm(in_2, (768,), in_3, in_4, 1e-05);  in_2 = in_3 = in_4 = None
        return (tmp_8, tmp_9, tmp_10)

