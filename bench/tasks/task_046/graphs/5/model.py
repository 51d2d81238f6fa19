import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = in_0 + 1e-06;  in_0 = None
        tmp_1 = torch.rsqrt(tmp_0);  tmp_0 = None
        tmp_2 = in_1 * tmp_1;  in_1 = tmp_1 = None
        tmp_3 = tmp_2.to(torch.float32);  tmp_2 = None
        tmp_4 = in_2 * tmp_3;  in_2 = tmp_3 = None
        tmp_5 = torch.nn.functional.linear(tmp_4, in_3, None);  in_3 = None
        return (tmp_4, tmp_5)

