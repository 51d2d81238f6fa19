import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.gelu(in_0);  in_0 = None
        tmp_1 = torch._C._linalg.linalg_vector_norm(tmp_0, ord = 2, dim = (1, 2), keepdim = True)
        tmp_2 = tmp_1.mean(dim = -1, keepdim = True)
        tmp_3 = tmp_2 + 1e-06;  tmp_2 = None
        tmp_4 = tmp_1 / tmp_3;  tmp_1 = tmp_3 = None
        tmp_5 = tmp_0 * tmp_4;  tmp_4 = None
        tmp_6 = in_1 * tmp_5;  in_1 = tmp_5 = None
        tmp_7 = tmp_6 + in_2;  tmp_6 = in_2 = None
        tmp_8 = tmp_7 + tmp_0;  tmp_7 = tmp_0 = None
        return (tmp_8,)

