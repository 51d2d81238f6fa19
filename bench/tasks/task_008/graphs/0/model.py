import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor, in_6 : torch.Tensor, in_7 : torch.Tensor):
        tmp_0 = torch.cat((in_0, in_1), dim = -1);  in_0 = in_1 = None
        tmp_1 = tmp_0 * in_2;  tmp_0 = None
        tmp_2 = in_3 + tmp_1;  in_3 = tmp_1 = None
        tmp_3 = in_4 * in_5;  in_5 = None
        tmp_4 = in_4[(Ellipsis, slice(None, 16, None))]
        tmp_5 = in_4[(Ellipsis, slice(16, None, None))];  in_4 = None
        tmp_6 = -tmp_5;  tmp_5 = None
        tmp_7 = torch.cat((tmp_6, tmp_4), dim = -1);  tmp_6 = tmp_4 = None
        tmp_8 = tmp_7 * in_2;  tmp_7 = in_2 = None
        tmp_9 = tmp_3 + tmp_8;  tmp_3 = tmp_8 = None
        tmp_10 = torch.cat((tmp_2, in_6), dim = -1);  tmp_2 = in_6 = None
        tmp_11 = torch.cat((tmp_9, in_7), dim = -1);  tmp_9 = in_7 = None
        return (tmp_10, tmp_11)

