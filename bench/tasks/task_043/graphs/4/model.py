import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = in_0 + in_1;  in_0 = in_1 = None
        tmp_1 = torch.nn.functional.layer_norm(tmp_0, (1024,), in_2, in_3, 1e-05);  in_2 = in_3 = None
        tmp_2 = torch.nn.functional.linear(tmp_1, in_4, in_5);  in_4 = in_5 = None
        return (tmp_0, tmp_1, tmp_2)

