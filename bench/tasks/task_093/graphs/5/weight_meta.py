class Program_weight_tensor_meta_attn_weights:
    name = "in_0"
    original_name = "attn_weights"
    shape = [4, 8, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 1.001
    data = None


class Program_weight_tensor_meta_values_1:
    name = "in_1"
    original_name = "values_1"
    shape = [1, 8, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.045
    data = None
