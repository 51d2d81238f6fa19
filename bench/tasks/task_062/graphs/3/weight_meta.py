class Program_weight_tensor_meta_mul_20:
    name = "in_0"
    original_name = "mul_20"
    shape = [1, 128, 1792]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.004
    std = 0.107
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_"
    shape = [512, 1792]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_hidden_states_15:
    name = "in_2"
    original_name = "hidden_states_15"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.168
    data = None
