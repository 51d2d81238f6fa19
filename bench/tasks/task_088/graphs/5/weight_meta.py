class Program_weight_tensor_meta_linear_4:
    name = "in_0"
    original_name = "linear_4"
    shape = [1, 128, 4864]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.004
    std = 0.597
    data = None


class Program_weight_tensor_meta_hidden_states_8:
    name = "in_1"
    original_name = "hidden_states_8"
    shape = [1, 128, 896]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.065
    std = 0.998
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [4864, 896]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None
