class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [2, 4, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -1.708057771759521e+38
    std = 1.7015026997997167e+38
    data = None


class Program_weight_tensor_meta_value_states_1:
    name = "in_1"
    original_name = "value_states_1"
    shape = [2, 4, 32, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.643
    data = None
