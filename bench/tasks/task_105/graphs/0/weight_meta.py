class Program_weight_tensor_meta_attn_weights_4:
    name = "in_0"
    original_name = "attn_weights_4"
    shape = [2, 8, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.031
    std = 0.041
    data = None
    min_val = 0.000
    max_val = 0.664


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [2, 8, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 1.002
    data = None
