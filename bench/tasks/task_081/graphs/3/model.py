import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, None);  in_0 = in_1 = None
        tmp_1 = tmp_0.view((1, 128, -1, 64));  tmp_0 = None
        tmp_2 = tmp_1.transpose(1, 2);  tmp_1 = None
        tmp_3 = in_2.unsqueeze(1);  in_2 = None
        tmp_4 = in_3.unsqueeze(1);  in_3 = None
        tmp_5 = in_4 * tmp_3
        tmp_6 = in_4[(Ellipsis, slice(None, 32, None))]
        tmp_7 = in_4[(Ellipsis, slice(32, None, None))];  in_4 = None
        tmp_8 = -tmp_7;  tmp_7 = None
        return (tmp_2, tmp_3, tmp_4, tmp_5, tmp_6, tmp_8)

