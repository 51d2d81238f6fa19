class Program_weight_tensor_meta_features_18:
    name = "in_0"
    original_name = "features_18"
    shape = [2, 20, 20, 320]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.180
    data = None
