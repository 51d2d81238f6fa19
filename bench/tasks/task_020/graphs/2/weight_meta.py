class Program_weight_tensor_meta_input_7:
    name = "in_0"
    original_name = "input_7"
    shape = [1, 192, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_gates_1:
    name = "in_1"
    original_name = "gates_1"
    shape = [1, 3, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.009
    std = 0.270
    data = None


class Program_weight_tensor_meta_ctx_all_3:
    name = "in_2"
    original_name = "ctx_all_3"
    shape = [1, 192, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.002
    data = None
