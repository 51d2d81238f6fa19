class Program_weight_tensor_meta_query_layer:
    name = "in_0"
    original_name = "query_layer"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 0.127
    data = None


class Program_weight_tensor_meta_transpose_3:
    name = "in_1"
    original_name = "transpose_3"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.004
    std = 0.123
    data = None
