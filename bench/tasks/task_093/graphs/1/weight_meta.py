class Program_weight_tensor_meta_mul_5:
    name = "in_0"
    original_name = "mul_5"
    shape = [2, 14, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.530
    data = None


class Program_weight_tensor_meta_mul_6:
    name = "in_1"
    original_name = "mul_6"
    shape = [2, 14, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.271
    data = None
