class Program_weight_tensor_meta_linear_2:
    name = "in_0"
    original_name = "linear_2"
    shape = [1, 128, 128]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.003
    std = 0.454
    data = None


class Program_weight_tensor_meta_cos_2:
    name = "in_1"
    original_name = "cos_2"
    shape = [1, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.504
    std = 0.680
    data = None


class Program_weight_tensor_meta_sin_2:
    name = "in_2"
    original_name = "sin_2"
    shape = [1, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.170
    std = 0.505
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_3"
    original_name = "query_states"
    shape = [1, 8, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.450
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_4"
    original_name = "key_states"
    shape = [1, 2, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.010
    std = 0.454
    data = None
