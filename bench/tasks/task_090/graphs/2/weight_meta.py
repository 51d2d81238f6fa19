class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [1, 6, 197, 197]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.152
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [1, 6, 197, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.391
    data = None
