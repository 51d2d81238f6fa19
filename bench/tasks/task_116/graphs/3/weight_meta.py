class Program_weight_tensor_meta_attn_weights:
    name = "in_0"
    original_name = "attn_weights"
    shape = [2, 6, 198, 198]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.152
    data = None
