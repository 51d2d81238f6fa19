import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        in_0 += in_1;  tmp_0 = in_0;  in_0 = in_1 = None
        tmp_1 = torch.nn.functional.dropout(tmp_0, p = 0.0, training = False);  tmp_0 = None
        tmp_2 = in_2 + tmp_1;  in_2 = tmp_1 = None
        tmp_3 = torch.nn.functional.layer_norm(tmp_2, (512,), in_3, in_4, 1e-05);  in_3 = in_4 = None
        tmp_4 = in_5.T;  in_5 = None
        return (tmp_2, tmp_3, tmp_4)

