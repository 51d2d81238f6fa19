class Program_weight_tensor_meta_mul_6:
    name = "in_0"
    original_name = "mul_6"
    shape = [1, 128, 2048]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.367
    data = None
