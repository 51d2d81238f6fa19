class Program_weight_tensor_meta_linear_2:
    name = "in_0"
    original_name = "linear_2"
    shape = [2, 32, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.599
    data = None


class Program_weight_tensor_meta_cos_2:
    name = "in_1"
    original_name = "cos_2"
    shape = [1, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.659
    std = 0.600
    data = None


class Program_weight_tensor_meta_sin_2:
    name = "in_2"
    original_name = "sin_2"
    shape = [1, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.162
    std = 0.423
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_3"
    original_name = "query_states"
    shape = [2, 14, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.596
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_4"
    original_name = "key_states"
    shape = [2, 2, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.014
    std = 0.592
    data = None
