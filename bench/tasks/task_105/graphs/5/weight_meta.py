class Program_weight_tensor_meta_attn_weights_3:
    name = "in_0"
    original_name = "attn_weights_3"
    shape = [1, 4, 128, 128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.008
    std = 0.018
    data = None
    min_val = 0.000
    max_val = 1.000


class Program_weight_tensor_meta_value_states_1:
    name = "in_1"
    original_name = "value_states_1"
    shape = [1, 4, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.638
    data = None
