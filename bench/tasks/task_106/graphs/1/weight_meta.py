class Program_weight_tensor_meta_pow_1:
    name = "in_0"
    original_name = "pow_1"
    shape = [4, 64, 576]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.001
    data = None
    min_val = 0.000
    max_val = 0.010
