class Program_weight_tensor_meta_linear_4:
    name = "in_0"
    original_name = "linear_4"
    shape = [2, 32, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.477
    data = None


class Program_weight_tensor_meta_hidden_states_8:
    name = "in_1"
    original_name = "hidden_states_8"
    shape = [2, 32, 576]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_args_0_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_2"
    original_name = "L_args_0_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [1536, 576]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
