class Program_weight_tensor_meta_x2:
    name = "in_0"
    original_name = "x2"
    shape = [2, 16, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.003
    std = 0.633
    data = None
