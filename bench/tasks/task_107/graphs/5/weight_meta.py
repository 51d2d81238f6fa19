class Program_weight_tensor_meta_cos:
    name = "in_0"
    original_name = "cos"
    shape = [1, 64, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.559
    std = 0.643
    data = None
