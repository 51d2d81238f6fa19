import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, None);  in_0 = in_1 = None
        tmp_1 = in_2 * tmp_0;  in_2 = tmp_0 = None
        tmp_2 = torch.nn.functional.linear(tmp_1, in_3, None);  tmp_1 = in_3 = None
        return (tmp_2,)

