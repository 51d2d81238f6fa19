class Program_weight_tensor_meta_features_2:
    name = "in_0"
    original_name = "features_2"
    shape = [2, 96, 40, 40]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_features_10:
    name = "in_1"
    original_name = "features_10"
    shape = [2, 96, 40, 40]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
