import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = torch.conv2d(in_0, in_1, None, (2, 2), (1, 1), (1, 1), 64);  in_0 = in_1 = None
        tmp_1 = torch.nn.functional.batch_norm(tmp_0, in_2, in_3, in_4, in_5, False, 0.1, 1e-05);  tmp_0 = in_2 = in_3 = in_4 = in_5 = None
        return (tmp_1,)

