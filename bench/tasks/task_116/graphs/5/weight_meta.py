class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [2, 16, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -1.708057771759521e+38
    std = 1.7014248153468387e+38
    data = None
