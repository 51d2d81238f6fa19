class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [4, 6, 197, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.392
    data = None


class Program_weight_tensor_meta_transpose_4:
    name = "in_1"
    original_name = "transpose_4"
    shape = [4, 6, 64, 197]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.392
    data = None
