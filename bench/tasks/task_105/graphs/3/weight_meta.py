class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [1, 4, 100, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.008
    std = 0.321
    data = None


class Program_weight_tensor_meta_transpose_5:
    name = "in_1"
    original_name = "transpose_5"
    shape = [1, 4, 64, 100]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.321
    data = None
