import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, in_2);  in_0 = in_1 = in_2 = None
        tmp_1 = tmp_0.transpose(1, 2);  tmp_0 = None
        tmp_2 = tmp_1.view(1, 512, 28, 28);  tmp_1 = None
        tmp_3 = torch.conv2d(tmp_2, in_3, in_4, (1, 1), (1, 1), (1, 1), 512);  tmp_2 = in_3 = in_4 = None
        return (tmp_3,)

