class Program_weight_tensor_meta_input_7:
    name = "in_0"
    original_name = "input_7"
    shape = [4, 192, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_gates_1:
    name = "in_1"
    original_name = "gates_1"
    shape = [4, 3, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.274
    data = None


class Program_weight_tensor_meta_ctx_all_3:
    name = "in_2"
    original_name = "ctx_all_3"
    shape = [4, 192, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.002
    data = None
