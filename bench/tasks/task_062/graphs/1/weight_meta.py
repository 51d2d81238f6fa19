class Program_weight_tensor_meta_mul_20:
    name = "in_0"
    original_name = "mul_20"
    shape = [4, 64, 4864]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.197
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_"
    shape = [896, 4864]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_hidden_states_15:
    name = "in_2"
    original_name = "hidden_states_15"
    shape = [4, 64, 896]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.003
    std = 0.382
    data = None
