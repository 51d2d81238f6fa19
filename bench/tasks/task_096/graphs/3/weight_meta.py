class Program_weight_tensor_meta_neg_1:
    name = "in_0"
    original_name = "neg_1"
    shape = [4, 3, 64, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.482
    data = None


class Program_weight_tensor_meta_x1_1:
    name = "in_1"
    original_name = "x1_1"
    shape = [4, 3, 64, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 0.479
    data = None
