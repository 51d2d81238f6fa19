import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = in_0 + in_1;  in_0 = in_1 = None
        tmp_1 = tmp_0.permute(0, 2, 3, 1);  tmp_0 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (96,), in_2, in_3, 1e-06);  tmp_1 = in_2 = in_3 = None
        tmp_3 = tmp_2.permute(0, 3, 1, 2);  tmp_2 = None
        tmp_4 = torch.conv2d(tmp_3, in_4, in_5, (2, 2), (0, 0), (1, 1), 1);  tmp_3 = in_4 = in_5 = None
        return (tmp_4,)

