class Program_weight_tensor_meta_cos:
    name = "in_0"
    original_name = "cos"
    shape = [1, 128, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.495
    std = 0.683
    data = None
