import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor, in_6 : torch.Tensor, in_7 : torch.Tensor, in_8 : torch.Tensor):
        tmp_0 = torch.conv2d(in_0, in_1, in_2, (4, 4), (0, 0), (1, 1), 1);  in_0 = in_1 = in_2 = None
        tmp_1 = tmp_0.permute(0, 2, 3, 1);  tmp_0 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (40,), in_3, in_4, 1e-06);  tmp_1 = in_3 = in_4 = None
        tmp_3 = tmp_2.permute(0, 3, 1, 2);  tmp_2 = None
        tmp_4 = torch.conv2d(tmp_3, in_5, in_6, (1, 1), (3, 3), (1, 1), 40);  in_5 = in_6 = None
        tmp_5 = tmp_4.permute(0, 2, 3, 1);  tmp_4 = None
        tmp_6 = torch.nn.functional.layer_norm(tmp_5, (40,), in_7, in_8, 1e-06);  tmp_5 = in_7 = in_8 = None
        return (tmp_3, tmp_6)

