class Program_weight_tensor_meta_pow_2:
    name = "in_0"
    original_name = "pow_2"
    shape = [2, 32, 8, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.204
    std = 0.290
    data = None
    min_val = 0.000
    max_val = 3.051
