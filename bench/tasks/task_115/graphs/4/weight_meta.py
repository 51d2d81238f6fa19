class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [1, 12, 49, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.014
    std = 0.566
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_1"
    original_name = "key_states"
    shape = [1, 12, 49, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.005
    std = 0.557
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_2"
    original_name = "value_states"
    shape = [1, 12, 49, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.012
    std = 0.562
    data = None
