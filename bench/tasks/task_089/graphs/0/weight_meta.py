class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -2.1184571182822097e+37
    std = 8.204770140290637e+37
    data = None


class Program_weight_tensor_meta_value_layer:
    name = "in_1"
    original_name = "value_layer"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.126
    data = None
