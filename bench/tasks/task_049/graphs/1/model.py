import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.conv1d(in_0, in_1, None, (2,), (0,), (1,), 1);  in_0 = in_1 = None
        tmp_1 = torch.nn.functional.gelu(tmp_0);  tmp_0 = None
        tmp_2 = torch.conv1d(tmp_1, in_2, None, (2,), (0,), (1,), 1);  tmp_1 = in_2 = None
        tmp_3 = torch.nn.functional.gelu(tmp_2);  tmp_2 = None
        tmp_4 = tmp_3.transpose(1, 2);  tmp_3 = None
        tmp_5 = torch.nn.functional.layer_norm(tmp_4, (512,), in_3, in_4, 1e-05);  tmp_4 = in_3 = in_4 = None
        return (tmp_5,)

