class Program_weight_tensor_meta_conv1d:
    name = "in_0"
    original_name = "conv1d"
    shape = [1, 384, 1000]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.308
    data = None


class Program_weight_tensor_meta_L_self_modules_conv2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_conv2_parameters_weight_"
    shape = [384, 384, 3]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_conv2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_conv2_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
