class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [1, 8, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.990
    data = None


class Program_weight_tensor_meta_values_1:
    name = "in_1"
    original_name = "values_1"
    shape = [1, 8, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.044
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_2"
    original_name = "mask"
    shape = [1, 1, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
