import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, in_2);  in_1 = in_2 = None
        tmp_1 = tmp_0.view(1, 128, -1, 64);  tmp_0 = None
        tmp_2 = tmp_1.transpose(1, 2);  tmp_1 = None
        tmp_3 = torch.nn.functional.linear(in_0, in_3, in_4);  in_0 = in_3 = in_4 = None
        return (tmp_2, tmp_3)

