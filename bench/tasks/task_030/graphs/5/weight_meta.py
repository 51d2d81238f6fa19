class Program_weight_tensor_meta_query_layer_1:
    name = "in_0"
    original_name = "query_layer_1"
    shape = [1, 8, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.445
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_1"
    original_name = "cos_3"
    shape = [1, 1, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.504
    std = 0.680
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.170
    std = 0.505
    data = None


class Program_weight_tensor_meta_key_layer_1:
    name = "in_3"
    original_name = "key_layer_1"
    shape = [1, 1, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.005
    std = 0.448
    data = None
