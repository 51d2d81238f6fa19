class Program_weight_tensor_meta_pow_1:
    name = "in_0"
    original_name = "pow_1"
    shape = [2, 32, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.997
    std = 1.404
    data = None
    min_val = 0.000
    max_val = 17.503
