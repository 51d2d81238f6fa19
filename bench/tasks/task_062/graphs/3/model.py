import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.linear(in_0, in_1, None);  in_0 = in_1 = None
        tmp_1 = in_2 + tmp_0;  in_2 = tmp_0 = None
        tmp_2 = tmp_1.to(torch.float32);  tmp_1 = None
        tmp_3 = tmp_2.pow(2)
        tmp_4 = tmp_3.mean(-1, keepdim = True);  tmp_3 = None
        tmp_5 = tmp_4 + 1e-06;  tmp_4 = None
        return (tmp_2, tmp_5)

