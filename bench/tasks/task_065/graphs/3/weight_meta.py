class Program_weight_tensor_meta_hidden_states_2:
    name = "in_0"
    original_name = "hidden_states_2"
    shape = [1, 128, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.136
    std = 0.361
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_1_modules_mlp_modules_dense_4h_to_h_parameters_weight_:
    name = "in_1"
    original_name = "L_args_0_modules_h_modules_1_modules_mlp_modules_dense_4h_to_h_parameters_weight_"
    shape = [1024, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_1_modules_mlp_modules_dense_4h_to_h_parameters_bias_:
    name = "in_2"
    original_name = "L_args_0_modules_h_modules_1_modules_mlp_modules_dense_4h_to_h_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_out_5:
    name = "in_3"
    original_name = "out_5"
    shape = [1, 128, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 1.123
    data = None


class Program_weight_tensor_meta_L_args_0_modules_ln_f_parameters_weight_:
    name = "in_4"
    original_name = "L_args_0_modules_ln_f_parameters_weight_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_args_0_modules_ln_f_parameters_bias_:
    name = "in_5"
    original_name = "L_args_0_modules_ln_f_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
