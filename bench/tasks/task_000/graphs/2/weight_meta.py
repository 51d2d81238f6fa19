class Program_weight_tensor_meta_mul_2:
    name = "in_0"
    original_name = "mul_2"
    shape = [1, 128, 8, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.377
    data = None


class Program_weight_tensor_meta_mul_3:
    name = "in_1"
    original_name = "mul_3"
    shape = [1, 128, 8, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.243
    data = None


class Program_weight_tensor_meta_k_rot_1:
    name = "in_2"
    original_name = "k_rot_1"
    shape = [1, 128, 8, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.447
    data = None


class Program_weight_tensor_meta_k_pass:
    name = "in_3"
    original_name = "k_pass"
    shape = [1, 128, 8, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 0.449
    data = None


class Program_weight_tensor_meta_q_pass:
    name = "in_4"
    original_name = "q_pass"
    shape = [1, 128, 8, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.004
    std = 0.444
    data = None
