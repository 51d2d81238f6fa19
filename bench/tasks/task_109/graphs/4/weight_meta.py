class Program_weight_tensor_meta_x2:
    name = "in_0"
    original_name = "x2"
    shape = [1, 9, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.481
    data = None
