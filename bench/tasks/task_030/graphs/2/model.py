import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = in_0 * in_1
        tmp_1 = in_0[(Ellipsis, slice(None, 32, None))]
        tmp_2 = in_0[(Ellipsis, slice(32, None, None))];  in_0 = None
        tmp_3 = -tmp_2;  tmp_2 = None
        tmp_4 = torch.cat((tmp_3, tmp_1), dim = -1);  tmp_3 = tmp_1 = None
        tmp_5 = tmp_4 * in_2;  tmp_4 = in_2 = None
        tmp_6 = tmp_0 + tmp_5;  tmp_0 = tmp_5 = None
        tmp_7 = in_3 * in_1;  in_1 = None
        tmp_8 = in_3[(Ellipsis, slice(None, 32, None))]
        tmp_9 = in_3[(Ellipsis, slice(32, None, None))];  in_3 = None
        tmp_10 = -tmp_9;  tmp_9 = None
        tmp_11 = torch.cat((tmp_10, tmp_8), dim = -1);  tmp_10 = tmp_8 = None
        return (tmp_6, tmp_7, tmp_11)

