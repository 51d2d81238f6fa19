class Program_weight_tensor_meta_intermediate_output_1:
    name = "in_0"
    original_name = "intermediate_output_1"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.008
    std = 0.494
    data = None


class Program_weight_tensor_meta_out_5:
    name = "in_1"
    original_name = "out_5"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 1.127
    data = None


class Program_weight_tensor_meta_L_args_0_modules_ln_f_parameters_weight_:
    name = "in_2"
    original_name = "L_args_0_modules_ln_f_parameters_weight_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_args_0_modules_ln_f_parameters_bias_:
    name = "in_3"
    original_name = "L_args_0_modules_ln_f_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
