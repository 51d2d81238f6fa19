class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [2, 6, 302, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.393
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_1"
    original_name = "key_states"
    shape = [2, 6, 302, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.390
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_2"
    original_name = "value_states"
    shape = [2, 6, 302, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.391
    data = None
