class Program_weight_tensor_meta_features_190:
    name = "in_0"
    original_name = "features_190"
    shape = [1, 1280, 7, 7]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
