class Program_weight_tensor_meta_features_45:
    name = "in_0"
    original_name = "features_45"
    shape = [1, 48, 28, 28]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_features_57:
    name = "in_1"
    original_name = "features_57"
    shape = [1, 48, 28, 28]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None
