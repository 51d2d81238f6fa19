class Program_weight_tensor_meta_attn_weights:
    name = "in_0"
    original_name = "attn_weights"
    shape = [1, 6, 198, 198]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.151
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [1, 6, 198, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.391
    data = None
