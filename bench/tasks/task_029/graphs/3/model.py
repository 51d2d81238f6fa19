import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = in_0 * in_1;  in_0 = in_1 = None
        tmp_1 = tmp_0 + in_2;  tmp_0 = in_2 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (384,), in_3, in_4, 1e-06);  tmp_1 = in_3 = in_4 = None
        tmp_3 = tmp_2[(slice(None, None, None), 0, slice(None, None, None))]
        return (tmp_2, tmp_3)

