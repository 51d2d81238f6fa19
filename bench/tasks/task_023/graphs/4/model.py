import torch
from torch import device


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = in_0[(None, None, slice(None, None, None), None)];  in_0 = None
        tmp_1 = in_1[(None, None, None, slice(None, None, None))];  in_1 = None
        tmp_2 = tmp_0.new_ones((), dtype = torch.bool)
        tmp_3 = tmp_1 <= tmp_0;  tmp_0 = None
        tmp_4 = tmp_3.to(device(type='cpu'));  tmp_3 = None
        tmp_5 = tmp_2 & tmp_4;  tmp_2 = tmp_4 = None
        tmp_6 = in_2[(in_3, tmp_1)];  in_2 = in_3 = tmp_1 = None
        tmp_7 = tmp_6.to(device(type='cpu'));  tmp_6 = None
        tmp_8 = tmp_5 & tmp_7;  tmp_5 = tmp_7 = None
        tmp_9 = tmp_8.expand(1, -1, 128, 128);  tmp_8 = None
        tmp_10 = torch.nn.functional.dropout(in_4, 0.0, False, False);  in_4 = None
        tmp_11 = in_5[(Ellipsis, None)];  in_5 = None
        return (tmp_9, tmp_10, tmp_11)

