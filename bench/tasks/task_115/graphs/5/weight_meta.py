class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [1, 8, 49, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.455
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_1"
    original_name = "key_states"
    shape = [1, 8, 49, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.003
    std = 0.442
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_2"
    original_name = "value_states"
    shape = [1, 8, 49, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.008
    std = 0.465
    data = None
