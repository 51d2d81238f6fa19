class Program_weight_tensor_meta_cos:
    name = "in_0"
    original_name = "cos"
    shape = [1, 128, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.518
    std = 0.673
    data = None
