class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [2, 6, 197, 197]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.153
    data = None
