import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.gelu(in_0);  in_0 = None
        tmp_1 = torch.nn.functional.dropout(tmp_0, 0.0, False, False);  tmp_0 = None
        tmp_2 = torch.nn.functional.linear(tmp_1, in_1, in_2);  tmp_1 = in_1 = in_2 = None
        return (tmp_2,)

