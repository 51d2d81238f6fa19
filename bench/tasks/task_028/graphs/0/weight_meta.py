class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [2, 8, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 1.007
    data = None


class Program_weight_tensor_meta_values_1:
    name = "in_1"
    original_name = "values_1"
    shape = [1, 8, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.047
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_2"
    original_name = "mask"
    shape = [2, 1, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -4.2535293329816107e+37
    std = 1.125652943532824e+38
    data = None
