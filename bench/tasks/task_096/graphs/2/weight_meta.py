class Program_weight_tensor_meta_neg_1:
    name = "in_0"
    original_name = "neg_1"
    shape = [4, 2, 64, 32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.452
    data = None


class Program_weight_tensor_meta_x1_1:
    name = "in_1"
    original_name = "x1_1"
    shape = [4, 2, 64, 32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.451
    data = None
