import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor):
        tmp_0 = torch.pow(in_0, 3.0);  in_0 = None
        return (tmp_0,)

