class Program_weight_tensor_meta_float_2:
    name = "in_0"
    original_name = "float_2"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.638
    data = None
