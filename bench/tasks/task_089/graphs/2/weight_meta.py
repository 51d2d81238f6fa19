class Program_weight_tensor_meta_attn_weights_2:
    name = "in_0"
    original_name = "attn_weights_2"
    shape = [1, 8, 128, 128]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.991
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [1, 8, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.007
    std = 0.995
    data = None
