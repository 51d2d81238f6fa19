class Program_weight_tensor_meta_neg:
    name = "in_0"
    original_name = "neg"
    shape = [1, 12, 128, 8]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.017
    std = 0.548
    data = None


class Program_weight_tensor_meta_x1:
    name = "in_1"
    original_name = "x1"
    shape = [1, 12, 128, 8]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.550
    data = None
