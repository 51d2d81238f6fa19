class Program_weight_tensor_meta_features_107:
    name = "in_0"
    original_name = "features_107"
    shape = [2, 1024, 5, 5]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
    min_val = 0.000
    max_val = 0.001
