class Program_weight_tensor_meta_neg:
    name = "in_0"
    original_name = "neg"
    shape = [4, 4, 64, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.639
    data = None


class Program_weight_tensor_meta_x1:
    name = "in_1"
    original_name = "x1"
    shape = [4, 4, 64, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.638
    data = None
