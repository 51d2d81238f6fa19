class Program_weight_tensor_meta_query_rot:
    name = "in_0"
    original_name = "query_rot"
    shape = [4, 8, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.442
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_1"
    original_name = "cos_3"
    shape = [1, 1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.559
    std = 0.643
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.148
    std = 0.503
    data = None


class Program_weight_tensor_meta_key_rot:
    name = "in_3"
    original_name = "key_rot"
    shape = [4, 8, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 0.445
    data = None
