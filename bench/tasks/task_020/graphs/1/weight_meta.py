class Program_weight_tensor_meta_input_7:
    name = "in_0"
    original_name = "input_7"
    shape = [2, 192, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_gates_1:
    name = "in_1"
    original_name = "gates_1"
    shape = [2, 3, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.016
    std = 0.272
    data = None


class Program_weight_tensor_meta_ctx_all_3:
    name = "in_2"
    original_name = "ctx_all_3"
    shape = [2, 192, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.002
    data = None
