class Program_weight_tensor_meta_q_rot:
    name = "in_0"
    original_name = "q_rot"
    shape = [4, 12, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.547
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_1"
    original_name = "cos_3"
    shape = [1, 1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.559
    std = 0.643
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.148
    std = 0.503
    data = None


class Program_weight_tensor_meta_k_rot:
    name = "in_3"
    original_name = "k_rot"
    shape = [4, 12, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.546
    data = None
