import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor):
        tmp_0 = torch.nn.functional.dropout(in_0, 0.1, False, False);  in_0 = None
        tmp_1 = tmp_0 + in_1;  tmp_0 = in_1 = None
        tmp_2 = torch.nn.functional.layer_norm(tmp_1, (96,), in_2, in_3, 1e-05);  tmp_1 = in_2 = in_3 = None
        tmp_3 = tmp_2.contiguous();  tmp_2 = None
        tmp_4 = tmp_3.view(1, 4, 16, -1);  tmp_3 = None
        tmp_5 = tmp_4.transpose(1, 3);  tmp_4 = None
        tmp_6 = tmp_5.reshape(384, 4, 2, 2);  tmp_5 = None
        tmp_7 = tmp_6.transpose(1, 2);  tmp_6 = None
        tmp_8 = tmp_7.reshape(1, 96, 8, 8);  tmp_7 = None
        tmp_9 = torch.nn.functional.interpolate(tmp_8, size = (7, 7), mode = 'bilinear', align_corners = False);  tmp_8 = None
        return (tmp_9,)

