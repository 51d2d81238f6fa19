class Program_weight_tensor_meta_linear:
    name = "in_0"
    original_name = "linear"
    shape = [1, 128, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.549
    data = None
