class Program_weight_tensor_meta_input_3:
    name = "in_0"
    original_name = "input_3"
    shape = [1, 96, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_gates:
    name = "in_1"
    original_name = "gates"
    shape = [1, 3, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.197
    data = None


class Program_weight_tensor_meta_ctx_all:
    name = "in_2"
    original_name = "ctx_all"
    shape = [1, 96, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.001
    data = None
