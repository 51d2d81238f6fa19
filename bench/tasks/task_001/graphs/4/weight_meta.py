class Program_weight_tensor_meta_mul:
    name = "in_0"
    original_name = "mul"
    shape = [1, 128, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.378
    data = None


class Program_weight_tensor_meta_mul_1:
    name = "in_1"
    original_name = "mul_1"
    shape = [1, 128, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.238
    data = None


class Program_weight_tensor_meta_sin:
    name = "in_2"
    original_name = "sin"
    shape = [1, 128, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.167
    std = 0.510
    data = None


class Program_weight_tensor_meta_cos:
    name = "in_3"
    original_name = "cos"
    shape = [1, 128, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.495
    std = 0.683
    data = None


class Program_weight_tensor_meta_q_rot:
    name = "in_4"
    original_name = "q_rot"
    shape = [1, 128, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.449
    data = None
