import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor, in_6 : torch.Tensor, in_7 : torch.Tensor):
        tmp_0 = torch.conv2d(in_0, in_1, in_2, (16, 16), (0, 0), (1, 1), 1);  in_0 = in_1 = in_2 = None
        tmp_1 = tmp_0.flatten(2);  tmp_0 = None
        tmp_2 = tmp_1.transpose(1, 2);  tmp_1 = None
        tmp_3 = in_3.expand(4, -1, -1);  in_3 = None
        tmp_4 = in_4.expand(4, -1, -1);  in_4 = None
        tmp_5 = torch.cat((tmp_3, tmp_4, tmp_2), dim = 1);  tmp_3 = tmp_4 = tmp_2 = None
        tmp_6 = tmp_5 + in_5;  tmp_5 = in_5 = None
        tmp_7 = torch.nn.functional.dropout(tmp_6, 0.0, False, False);  tmp_6 = None
        tmp_8 = torch.nn.functional.layer_norm(tmp_7, (384,), in_6, in_7, 1e-12);  in_6 = in_7 = None
        return (tmp_7, tmp_8)

