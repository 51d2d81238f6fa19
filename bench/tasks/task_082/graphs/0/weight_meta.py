class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [2, 4, 50, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.004
    std = 0.318
    data = None


class Program_weight_tensor_meta_transpose_5:
    name = "in_1"
    original_name = "transpose_5"
    shape = [2, 4, 64, 50]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.007
    std = 0.320
    data = None
