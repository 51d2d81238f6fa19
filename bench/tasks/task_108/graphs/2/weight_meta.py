class Program_weight_tensor_meta_linear:
    name = "in_0"
    original_name = "linear"
    shape = [2, 500, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.385
    data = None
