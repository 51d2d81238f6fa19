import torch


class GraphModule(torch.nn.Module):
    def forward(self, in_0 : torch.Tensor, in_1 : torch.Tensor, in_2 : torch.Tensor):
        tmp_0 = torch.nn.functional.scaled_dot_product_attention(in_0, in_1, in_2, attn_mask = None, dropout_p = 0.0, scale = 0.125, is_causal = False);  in_0 = in_1 = in_2 = None
        return (tmp_0,)

