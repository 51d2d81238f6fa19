class Program_weight_tensor_meta_pow_1:
    name = "in_0"
    original_name = "pow_1"
    shape = [1, 128, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.412
    std = 0.587
    data = None
    min_val = 0.000
    max_val = 8.478
