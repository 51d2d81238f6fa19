import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.layer_norm(in_0, (512,), in_1, in_2, 1e-05);  in_0 = in_1 = in_2 = None
        tmp_1 = torch.nn.functional.linear(tmp_0, in_3, in_4);  tmp_0 = in_3 = in_4 = None
        return (tmp_1,)

