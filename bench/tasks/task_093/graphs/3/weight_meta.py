class Program_weight_tensor_meta_features_21:
    name = "in_0"
    original_name = "features_21"
    shape = [2, 24, 40, 40]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_features_32:
    name = "in_1"
    original_name = "features_32"
    shape = [2, 24, 40, 40]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None
