class Program_weight_tensor_meta_attn_weights:
    name = "in_0"
    original_name = "attn_weights"
    shape = [4, 4, 25, 25]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.006
    std = 0.103
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [4, 4, 25, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.319
    data = None
