import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = in_0 + in_1;  in_0 = in_1 = None
        tmp_1 = torch.cat([in_2, in_3], dim = -1);  in_2 = in_3 = None
        tmp_2 = torch.cat([tmp_0, in_4], dim = -1);  tmp_0 = in_4 = None
        tmp_3 = tmp_2.transpose(1, 2);  tmp_2 = None
        tmp_4 = tmp_3.to(torch.float32);  tmp_3 = None
        tmp_5 = tmp_1.transpose(1, 2);  tmp_1 = None
        tmp_6 = tmp_5.to(torch.float32);  tmp_5 = None
        return (tmp_4, tmp_6)

