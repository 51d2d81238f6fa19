class Program_weight_tensor_meta_attn_weights_2:
    name = "in_0"
    original_name = "attn_weights_2"
    shape = [1, 6, 198, 198]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.005
    std = 0.001
    data = None
    min_val = 0.002
    max_val = 0.012


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [1, 6, 198, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.391
    data = None
