class Program_weight_tensor_meta_h_5:
    name = "in_0"
    original_name = "h_5"
    shape = [1, 64, 3072]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.448
    data = None
