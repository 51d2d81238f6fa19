import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor):
        tmp_0 = in_0.flatten(2);  in_0 = None
        tmp_1 = tmp_0.transpose(1, 2);  tmp_0 = None
        tmp_2 = in_1.expand(2, -1, -1);  in_1 = None
        tmp_3 = in_2.expand(2, -1, -1);  in_2 = None
        tmp_4 = torch.cat((tmp_2, tmp_3, tmp_1), dim = 1);  tmp_2 = tmp_3 = tmp_1 = None
        tmp_5 = tmp_4 + in_3;  tmp_4 = in_3 = None
        tmp_6 = torch.nn.functional.dropout(tmp_5, 0.0, False, False);  tmp_5 = None
        tmp_7 = torch.nn.functional.layer_norm(tmp_6, (384,), in_4, in_5, 1e-12);  in_4 = in_5 = None
        return (tmp_6, tmp_7)

