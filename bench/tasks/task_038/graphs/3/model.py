import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor):
        tmp_0 = in_0.view((4, 64, 3072));  in_0 = None
        tmp_1 = 0.5 * tmp_0
        tmp_2 = torch.pow(tmp_0, 3.0)
        tmp_3 = 0.044715 * tmp_2;  tmp_2 = None
        tmp_4 = tmp_0 + tmp_3;  tmp_0 = tmp_3 = None
        tmp_5 = 0.7978845608028654 * tmp_4;  tmp_4 = None
        tmp_6 = torch.tanh(tmp_5);  tmp_5 = None
        tmp_7 = 1.0 + tmp_6;  tmp_6 = None
        tmp_8 = tmp_1 * tmp_7;  tmp_1 = tmp_7 = None
        tmp_9 = tmp_8.view(-1, 3072);  tmp_8 = None
        return (tmp_9,)

