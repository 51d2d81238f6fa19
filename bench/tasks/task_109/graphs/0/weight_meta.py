class Program_weight_tensor_meta_x2_1:
    name = "in_0"
    original_name = "x2_1"
    shape = [1, 2, 128, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 0.451
    data = None
