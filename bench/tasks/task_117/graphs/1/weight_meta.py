class Program_weight_tensor_meta_attn_weights:
    name = "in_0"
    original_name = "attn_weights"
    shape = [2, 4, 50, 50]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.003
    std = 0.102
    data = None
