import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = torch.nn.functional.dropout(in_0, p = 0.1, training = False);  in_0 = None
        tmp_1 = in_1 + tmp_0;  in_1 = tmp_0 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (256,), in_2, in_3, 1e-05);  tmp_1 = in_2 = in_3 = None
        return (tmp_2,)

