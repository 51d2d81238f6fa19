class Program_weight_tensor_meta_x_4:
    name = "in_0"
    original_name = "x_4"
    shape = [128, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.006
    std = 0.552
    data = None
