import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = in_0 * 1.0;  in_0 = None
        tmp_1 = tmp_0 + in_1;  tmp_0 = in_1 = None
        tmp_2 = tmp_1 + in_2;  tmp_1 = in_2 = None
        tmp_3 = torch.nn.functional.softmax(tmp_2, dim = -1);  tmp_2 = None
        tmp_4 = torch.nn.functional.dropout(tmp_3, p = 0.0, training = False);  tmp_3 = None
        return (tmp_4,)

