class Program_weight_tensor_meta_query_rot:
    name = "in_0"
    original_name = "query_rot"
    shape = [2, 8, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.444
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_1"
    original_name = "cos_3"
    shape = [1, 1, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.603
    std = 0.647
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.185
    std = 0.431
    data = None


class Program_weight_tensor_meta_key_rot:
    name = "in_3"
    original_name = "key_rot"
    shape = [2, 8, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.445
    data = None
