import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.gelu(in_0);  in_0 = None
        tmp_1 = tmp_0.transpose(1, 2);  tmp_0 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (512,), in_1, in_2, 1e-05);  tmp_1 = in_1 = in_2 = None
        return (tmp_2,)

