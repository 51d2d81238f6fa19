class Program_weight_tensor_meta_input_3:
    name = "in_0"
    original_name = "input_3"
    shape = [2, 96, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_gates:
    name = "in_1"
    original_name = "gates"
    shape = [2, 3, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.196
    data = None


class Program_weight_tensor_meta_ctx_all:
    name = "in_2"
    original_name = "ctx_all"
    shape = [2, 96, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.001
    data = None
