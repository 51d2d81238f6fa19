import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor, in_5 : torch.Tensor, in_6 : torch.Tensor, in_7 : torch.Tensor, in_8 : torch.Tensor):
        tmp_0 = torch.conv2d(in_0, in_1, None, (1, 1), (1, 1), (1, 1), 1);  in_0 = in_1 = None
        tmp_1 = torch.nn.functional.group_norm(tmp_0, 32, in_2, in_3, 1e-05);  tmp_0 = in_2 = in_3 = None
        tmp_2 = torch.nn.functional.relu(tmp_1, inplace = False);  tmp_1 = None
        tmp_3 = in_4.reshape(1, 256, -1)
        tmp_4 = torch.nn.functional.batch_norm(tmp_3, None, None, training = True, momentum = 0.0, eps = 1e-08);  tmp_3 = None
        tmp_5 = tmp_4.reshape_as(in_4);  tmp_4 = in_4 = None
        tmp_6 = torch.conv2d(tmp_2, tmp_5, None, (1, 1), (0, 0), (1, 1), 1);  tmp_2 = tmp_5 = None
        tmp_7 = tmp_6 + in_5;  tmp_6 = in_5 = None
        tmp_8 = torch.nn.functional.group_norm(tmp_7, 32, in_6, in_7, 1e-05);  tmp_7 = in_6 = in_7 = None
        tmp_9 = torch.nn.functional.relu(tmp_8, inplace = False);  tmp_8 = None
        tmp_10 = in_8.reshape(1, 512, -1)
        tmp_11 = torch.nn.functional.batch_norm(tmp_10, None, None, training = True, momentum = 0.0, eps = 1e-08);  tmp_10 = None
        tmp_12 = tmp_11.reshape_as(in_8);  tmp_11 = in_8 = None
        return (tmp_9, tmp_12)

