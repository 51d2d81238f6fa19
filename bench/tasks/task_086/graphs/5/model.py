import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor, in_3 : torch.Tensor, in_4 : torch.Tensor):
        tmp_0 = torch.nn.functional.scaled_dot_product_attention(in_0, in_1, in_2, attn_mask = None, dropout_p = 0.0, scale = 0.125, is_causal = False);  in_0 = in_1 = in_2 = None
        tmp_1 = tmp_0.reshape(4, -1, 302, 64);  tmp_0 = None
        tmp_2 = tmp_1.transpose(1, 2);  tmp_1 = None
        tmp_3 = tmp_2.contiguous();  tmp_2 = None
        tmp_4 = tmp_3.reshape(4, 302, -1);  tmp_3 = None
        tmp_5 = tmp_4.contiguous();  tmp_4 = None
        tmp_6 = torch.nn.functional.linear(tmp_5, in_3, in_4);  tmp_5 = in_3 = in_4 = None
        return (tmp_6,)

