import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.gelu(in_0, approximate = 'none');  in_0 = None
        tmp_1 = in_1[(slice(None, None, None), slice(1, 2, None))]
        tmp_2 = tmp_0 * tmp_1;  tmp_1 = None
        tmp_3 = in_2 + tmp_2;  in_2 = tmp_2 = None
        tmp_4 = tmp_0.mean(2, keepdim = True);  tmp_0 = None
        tmp_5 = tmp_4.mean(3, keepdim = True);  tmp_4 = None
        tmp_6 = torch.nn.functional.gelu(tmp_5, approximate = 'none');  tmp_5 = None
        tmp_7 = in_1[(slice(None, None, None), slice(2, None, None))];  in_1 = None
        tmp_8 = tmp_6 * tmp_7;  tmp_6 = tmp_7 = None
        tmp_9 = tmp_3 + tmp_8;  tmp_3 = tmp_8 = None
        return (tmp_9,)

