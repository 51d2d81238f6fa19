class Program_weight_tensor_meta_mul_2:
    name = "in_0"
    original_name = "mul_2"
    shape = [4, 64, 4096]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.320
    data = None


class Program_weight_tensor_meta_add_5:
    name = "in_1"
    original_name = "add_5"
    shape = [4, 64, 4096]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.433
    data = None
    min_val = 0.000
    max_val = 2.000


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_weight_:
    name = "in_2"
    original_name = "L_args_0_modules_h_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_weight_"
    shape = [1024, 4096]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_bias_:
    name = "in_3"
    original_name = "L_args_0_modules_h_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_bias_"
    shape = [1024]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
