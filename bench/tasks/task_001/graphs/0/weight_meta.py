class Program_weight_tensor_meta_mul:
    name = "in_0"
    original_name = "mul"
    shape = [4, 64, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.389
    data = None


class Program_weight_tensor_meta_mul_1:
    name = "in_1"
    original_name = "mul_1"
    shape = [4, 64, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.223
    data = None


class Program_weight_tensor_meta_sin:
    name = "in_2"
    original_name = "sin"
    shape = [1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.161
    std = 0.475
    data = None


class Program_weight_tensor_meta_cos:
    name = "in_3"
    original_name = "cos"
    shape = [1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.566
    std = 0.655
    data = None


class Program_weight_tensor_meta_q_rot:
    name = "in_4"
    original_name = "q_rot"
    shape = [4, 64, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 0.448
    data = None
