import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = in_0.view((4, 64, -1, 64));  in_0 = None
        tmp_1 = tmp_0.transpose(1, 2);  tmp_0 = None
        tmp_2 = in_1.unsqueeze(1);  in_1 = None
        tmp_3 = in_2.unsqueeze(1);  in_2 = None
        tmp_4 = in_3 * tmp_2
        tmp_5 = in_3[(Ellipsis, slice(None, 32, None))]
        tmp_6 = in_3[(Ellipsis, slice(32, None, None))];  in_3 = None
        tmp_7 = -tmp_6;  tmp_6 = None
        tmp_8 = torch.cat((tmp_7, tmp_5), dim = -1);  tmp_7 = tmp_5 = None
        tmp_9 = tmp_8 * tmp_3;  tmp_8 = None
        tmp_10 = tmp_4 + tmp_9;  tmp_4 = tmp_9 = None
        tmp_11 = in_4 * tmp_2;  in_4 = tmp_2 = None
        return (tmp_1, tmp_3, tmp_10, tmp_11)

