class Program_weight_tensor_meta_x2:
    name = "in_0"
    original_name = "x2"
    shape = [4, 14, 64, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.596
    data = None
