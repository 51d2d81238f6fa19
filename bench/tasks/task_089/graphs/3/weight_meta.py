class Program_weight_tensor_meta_attn_weights_2:
    name = "in_0"
    original_name = "attn_weights_2"
    shape = [4, 8, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -2.1184571182822097e+37
    std = 8.204780281495439e+37
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [4, 8, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.998
    data = None
