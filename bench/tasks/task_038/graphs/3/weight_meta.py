class Program_weight_tensor_meta_x_4:
    name = "in_0"
    original_name = "x_4"
    shape = [256, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.551
    data = None
