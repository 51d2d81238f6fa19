class Program_weight_tensor_meta_linear_2:
    name = "in_0"
    original_name = "linear_2"
    shape = [4, 64, 192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.479
    data = None


class Program_weight_tensor_meta_cos_2:
    name = "in_1"
    original_name = "cos_2"
    shape = [1, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.585
    std = 0.642
    data = None


class Program_weight_tensor_meta_sin_2:
    name = "in_2"
    original_name = "sin_2"
    shape = [1, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.169
    std = 0.467
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_3"
    original_name = "query_states"
    shape = [4, 9, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.480
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_4"
    original_name = "key_states"
    shape = [4, 3, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.481
    data = None
