class Program_weight_tensor_meta_h_5:
    name = "in_0"
    original_name = "h_5"
    shape = [4, 32, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.447
    data = None
