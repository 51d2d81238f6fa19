class Program_weight_tensor_meta_position_ids_1:
    name = "in_0"
    original_name = "position_ids_1"
    shape = [1, 32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]


class Program_weight_tensor_meta_L_self_modules_wpe_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_wpe_parameters_weight_"
    shape = [1024, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None
