class Program_weight_tensor_meta_score:
    name = "in_0"
    original_name = "score"
    shape = [6, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.088
    data = None


class Program_weight_tensor_meta_truediv_4:
    name = "in_1"
    original_name = "truediv_4"
    shape = [6, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.089
    data = None
