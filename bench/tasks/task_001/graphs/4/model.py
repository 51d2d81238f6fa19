import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = in_0 + in_1;  in_0 = in_1 = None
        tmp_1 = in_2[(slice(None, None, None), slice(None, None, None), None, slice(None, None, None))];  in_2 = None
        tmp_2 = torch.repeat_interleave(tmp_1, 2, 3);  tmp_1 = None
        tmp_3 = in_3[(slice(None, None, None), slice(None, None, None), None, slice(None, None, None))];  in_3 = None
        tmp_4 = torch.repeat_interleave(tmp_3, 2, 3);  tmp_3 = None
        tmp_5 = in_4 * tmp_4;  tmp_4 = None
        tmp_6 = in_4[(slice(None, None, None), slice(None, None, None), slice(None, None, None), slice(None, None, 2))]
        tmp_7 = in_4[(slice(None, None, None), slice(None, None, None), slice(None, None, None), slice(1, None, 2))];  in_4 = None
        tmp_8 = -tmp_7;  tmp_7 = None
        tmp_9 = torch.stack((tmp_8, tmp_6), dim = -1);  tmp_8 = tmp_6 = None
        tmp_10 = tmp_9.flatten(-2);  tmp_9 = None
        tmp_11 = tmp_10 * tmp_2;  tmp_10 = tmp_2 = None
        return (tmp_0, tmp_5, tmp_11)

