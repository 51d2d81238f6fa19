class Program_weight_tensor_meta_mul_4:
    name = "in_0"
    original_name = "mul_4"
    shape = [2, 32, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.225
    data = None


class Program_weight_tensor_meta_add_6:
    name = "in_1"
    original_name = "add_6"
    shape = [2, 32, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.998
    std = 0.328
    data = None
    min_val = 0.035
    max_val = 1.962


class Program_weight_tensor_meta_L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_weight_"
    shape = [512, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
