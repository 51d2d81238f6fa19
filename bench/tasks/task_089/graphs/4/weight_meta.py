class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [2, 12, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -4.2535293329816107e+37
    std = 1.1254009345934986e+38
    data = None


class Program_weight_tensor_meta_value_layer:
    name = "in_1"
    original_name = "value_layer"
    shape = [2, 12, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.125
    data = None
