import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor):
        tmp_0 = torch.nn.functional.softmax(in_0, dim = -1);  in_0 = None
        tmp_1 = torch.nn.functional.dropout(tmp_0, p = 0.0, training = False);  tmp_0 = None
        tmp_2 = torch.matmul(tmp_1, in_1);  tmp_1 = in_1 = None
        return (tmp_2,)

