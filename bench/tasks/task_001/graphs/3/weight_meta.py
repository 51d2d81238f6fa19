class Program_weight_tensor_meta_mul:
    name = "in_0"
    original_name = "mul"
    shape = [2, 32, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.396
    data = None


class Program_weight_tensor_meta_mul_1:
    name = "in_1"
    original_name = "mul_1"
    shape = [2, 32, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.206
    data = None


class Program_weight_tensor_meta_sin:
    name = "in_2"
    original_name = "sin"
    shape = [1, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.163
    std = 0.435
    data = None


class Program_weight_tensor_meta_cos:
    name = "in_3"
    original_name = "cos"
    shape = [1, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.637
    std = 0.616
    data = None


class Program_weight_tensor_meta_q_rot:
    name = "in_4"
    original_name = "q_rot"
    shape = [2, 32, 8, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.004
    std = 0.451
    data = None
