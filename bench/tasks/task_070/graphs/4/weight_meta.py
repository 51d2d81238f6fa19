class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [4096, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_gelu:
    name = "in_2"
    original_name = "gelu"
    shape = [2, 32, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.140
    std = 0.363
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_"
    shape = [1024, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None
