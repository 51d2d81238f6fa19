import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor):
        tmp_0 = in_0.to(torch.float32);  in_0 = None
        tmp_1 = tmp_0.pow(2)
        tmp_2 = tmp_1.mean(-1, keepdim = True);  tmp_1 = None
        tmp_3 = tmp_2 + 1e-06;  tmp_2 = None
        tmp_4 = torch.rsqrt(tmp_3);  tmp_3 = None
        tmp_5 = tmp_0 * tmp_4;  tmp_0 = tmp_4 = None
        tmp_6 = tmp_5.to(torch.float16);  tmp_5 = None
        tmp_7 = in_1 * tmp_6;  in_1 = tmp_6 = None
        return (tmp_7,)

