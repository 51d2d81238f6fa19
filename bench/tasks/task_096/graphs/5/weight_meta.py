class Program_weight_tensor_meta_neg_1:
    name = "in_0"
    original_name = "neg_1"
    shape = [1, 4, 128, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.007
    std = 1.005
    data = None


class Program_weight_tensor_meta_x1_1:
    name = "in_1"
    original_name = "x1_1"
    shape = [1, 4, 128, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.995
    data = None
