class Program_weight_tensor_meta_attn_weights:
    name = "in_0"
    original_name = "attn_weights"
    shape = [1, 4, 100, 100]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.104
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [1, 4, 100, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.321
    data = None
