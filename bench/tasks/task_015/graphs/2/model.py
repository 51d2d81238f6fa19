import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = torch.nn.functional.dropout(in_0, 0.0, False, False);  in_0 = None
        tmp_1 = 1.0 * tmp_0;  tmp_0 = None
        tmp_2 = in_1 + tmp_1;  in_1 = tmp_1 = None
        tmp_3 = torch.nn.functional.layer_norm(tmp_2, (384,), in_2, in_3, 1e-05);  in_2 = in_3 = None
        tmp_4 = tmp_3.view(1, 14, 14, 384);  tmp_3 = None
        return (tmp_2, tmp_4)

