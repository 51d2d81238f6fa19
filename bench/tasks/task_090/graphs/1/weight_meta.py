class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [4, 4, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -1.6964207392494257e+38
    std = 1.69477786407153e+38
    data = None


class Program_weight_tensor_meta_value_states_1:
    name = "in_1"
    original_name = "value_states_1"
    shape = [4, 4, 64, 256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.640
    data = None
