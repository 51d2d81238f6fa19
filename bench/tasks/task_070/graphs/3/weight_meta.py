class Program_weight_tensor_meta_hidden_states_12:
    name = "in_0"
    original_name = "hidden_states_12"
    shape = [4, 64, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [1536, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_silu:
    name = "in_2"
    original_name = "silu"
    shape = [4, 64, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.049
    std = 0.237
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_"
    shape = [512, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
