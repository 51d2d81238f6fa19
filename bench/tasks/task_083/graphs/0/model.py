import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = torch.matmul(in_0, in_1);  in_0 = in_1 = None
        tmp_1 = tmp_0.permute(0, 2, 1, 3);  tmp_0 = None
        tmp_2 = tmp_1.contiguous();  tmp_1 = None
        tmp_3 = tmp_2.view(4, 64, 768);  tmp_2 = None
        tmp_4 = torch.nn.functional.linear(tmp_3, in_2, in_3);  tmp_3 = in_2 = in_3 = None
        return (tmp_4,)

