import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = torch.nn.functional.group_norm(in_0, 32, in_1, in_2, 1e-05);  in_0 = in_1 = in_2 = None
        tmp_1 = torch.nn.functional.relu(tmp_0, inplace = False);  tmp_0 = None
        tmp_2 = in_3.reshape(1, 256, -1)
        tmp_3 = torch.nn.functional.batch_norm(tmp_2, None, None, training = True, momentum = 0.0, eps = 1e-08);  tmp_2 = None
        tmp_4 = tmp_3.reshape_as(in_3);  tmp_3 = in_3 = None
        return (tmp_1, tmp_4)

