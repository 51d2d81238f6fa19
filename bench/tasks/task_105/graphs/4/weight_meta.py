class Program_weight_tensor_meta_attention_probs_1:
    name = "in_0"
    original_name = "attention_probs_1"
    shape = [8, 4, 196, 196]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 0.000
    data = None


class Program_weight_tensor_meta_value_layer:
    name = "in_1"
    original_name = "value_layer"
    shape = [8, 4, 196, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None
