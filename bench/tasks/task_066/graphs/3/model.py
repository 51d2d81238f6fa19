import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, in_2);  in_0 = in_1 = in_2 = None
        tmp_1 = torch.nn.functional.dropout(tmp_0, 0.1, False, False);  tmp_0 = None
        tmp_2 = tmp_1 + in_3;  tmp_1 = in_3 = None
        tmp_3 = torch.nn.functional.layer_norm(tmp_2, (512,), in_4, in_5, 1e-12);  tmp_2 = in_4 = in_5 = None
        return (tmp_3,)

