class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [1, 6, 198, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.389
    data = None


class Program_weight_tensor_meta_transpose_4:
    name = "in_1"
    original_name = "transpose_4"
    shape = [1, 6, 64, 198]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.391
    data = None
