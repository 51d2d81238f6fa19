class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [4, 8, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 1.001
    data = None


class Program_weight_tensor_meta_values_1:
    name = "in_1"
    original_name = "values_1"
    shape = [1, 8, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.045
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_2"
    original_name = "mask"
    shape = [4, 1, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -2.1267646664908054e+37
    std = 8.237175346114391e+37
    data = None
