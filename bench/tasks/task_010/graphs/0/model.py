import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.dropout(in_0, 0.0, False, False);  in_0 = None
        tmp_1 = tmp_0 + in_1;  tmp_0 = in_1 = None
        tmp_2 = tmp_1 + in_2;  tmp_1 = in_2 = None
        tmp_3 = torch.nn.functional.layer_norm(tmp_2, (768,), in_3, in_4, 1e-05);  tmp_2 = in_3 = in_4 = None
        return (tmp_3,)

