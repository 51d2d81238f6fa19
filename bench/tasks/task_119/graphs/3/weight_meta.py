class Program_weight_tensor_meta_mul_17:
    name = "in_0"
    original_name = "mul_17"
    shape = [2, 16, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.369
    data = None
