class Program_weight_tensor_meta_features_190:
    name = "in_0"
    original_name = "features_190"
    shape = [4, 1280, 4, 4]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
    min_val = 0.000
    max_val = 0.001
