class Program_weight_tensor_meta_L_stack0_:
    name = "in_0"
    original_name = "L_stack0_"
    shape = [1, 32, 24002]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.046
    std = 0.205
    data = None


class Program_weight_tensor_meta_x:
    name = "in_1"
    original_name = "x"
    shape = [16, 32, 3]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.059
    data = None


class Program_weight_tensor_meta_L_self_modules_conv_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_conv_parameters_bias_"
    shape = [16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.006
    std = 0.066
    data = None
