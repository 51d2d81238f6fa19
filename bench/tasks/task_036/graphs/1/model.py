import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = in_0.transpose(1, 2);  in_0 = None
        tmp_1 = torch.nn.functional.layer_norm(tmp_0, (768,), None, None, 1e-05);  tmp_0 = None
        tmp_2 = tmp_1.transpose(1, 2);  tmp_1 = None
        tmp_3 = torch.nn.functional.gelu(tmp_2);  tmp_2 = None
        tmp_4 = tmp_3.transpose(1, 2);  tmp_3 = None
        tmp_5 = tmp_4.to(device(type='cpu'));  tmp_4 = None
        tmp_6 = in_1 + tmp_5;  in_1 = tmp_5 = None
        tmp_7 = torch.nn.functional.layer_norm(tmp_6, (768,), in_2, in_3, 1e-05);  tmp_6 = in_2 = in_3 = None
        tmp_8 = torch.nn.functional.dropout(tmp_7, 0.1, False, False);  tmp_7 = None
        return (tmp_8,)

