class Program_weight_tensor_meta_features_3:
    name = "in_0"
    original_name = "features_3"
    shape = [1, 32, 112, 112]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.042
    std = 0.062
    data = None
    min_val = 0.000
    max_val = 0.561
