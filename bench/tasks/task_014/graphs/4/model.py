import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.dropout(in_0, 0.1, False, False);  in_0 = None
        tmp_1 = in_1 + tmp_0;  in_1 = tmp_0 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (768,), in_2, in_3, 1e-09);  tmp_1 = in_2 = in_3 = None
        tmp_3 = in_4[(slice(None, None, None), slice(None, -1, None))]
        tmp_4 = in_4[(slice(None, None, None), slice(None, 1, None))];  in_4 = None
        tmp_5 = torch.cat([tmp_4, tmp_3], dim = 1);  tmp_4 = tmp_3 = None
        tmp_6 = tmp_5[(slice(None, None, None), None, slice(None, None, None), None)];  tmp_5 = None
        tmp_7 = -tmp_6;  tmp_6 = None
        return (tmp_2, tmp_7)

