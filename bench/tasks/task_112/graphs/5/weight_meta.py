class Program_weight_tensor_meta_float_2:
    name = "in_0"
    original_name = "float_2"
    shape = [1, 128, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.642
    data = None
