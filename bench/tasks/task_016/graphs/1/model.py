import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor, in_6 : torch.Tensor, in_7 : torch.Tensor):
        tmp_0 = torch.nn.functional.embedding(in_0, in_1, None, None, 2.0, False, False);  in_0 = in_1 = None
        tmp_1 = torch.nn.functional.embedding(in_2, in_3, None, None, 2.0, False, False);  in_2 = in_3 = None
        tmp_2 = in_4 + tmp_0;  in_4 = tmp_0 = None
        tmp_3 = tmp_2 + tmp_1;  tmp_2 = tmp_1 = None
        tmp_4 = tmp_3 * in_5;  tmp_3 = in_5 = None
        tmp_5 = tmp_4 + in_6;  tmp_4 = in_6 = None
        tmp_6 = torch.nn.functional.dropout(tmp_5, 0.0, False, False);  tmp_5 = None
        tmp_7 = in_7.to(device = device(type='cpu'), dtype = torch.bool);  in_7 = None
        return (tmp_6, tmp_7)

