class Program_weight_tensor_meta_query_layer_1:
    name = "in_0"
    original_name = "query_layer_1"
    shape = [4, 8, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.447
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_1"
    original_name = "cos_3"
    shape = [1, 1, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.585
    std = 0.642
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.169
    std = 0.467
    data = None


class Program_weight_tensor_meta_key_layer_1:
    name = "in_3"
    original_name = "key_layer_1"
    shape = [4, 1, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.452
    data = None
