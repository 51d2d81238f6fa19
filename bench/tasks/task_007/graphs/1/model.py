import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor, in_6 : torch.Tensor, in_7 : torch.Tensor):
        tmp_0 = torch.nn.functional.batch_norm(in_0, in_1, in_2, in_3, in_4, False, 0.1, 1e-05);  in_0 = in_1 = in_2 = in_3 = in_4 = None
        tmp_1 = tmp_0.view(2, 384, 49);  tmp_0 = None
        tmp_2 = tmp_1.permute(0, 2, 1);  tmp_1 = None
        tmp_3 = torch.cat((in_5, in_6), dim = 1);  in_6 = None
        tmp_4 = torch.cat((in_5, in_7), dim = 1);  in_7 = None
        tmp_5 = torch.cat((in_5, tmp_2), dim = 1);  in_5 = tmp_2 = None
        return (tmp_3, tmp_4, tmp_5)

