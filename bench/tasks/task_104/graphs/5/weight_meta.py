class Program_weight_tensor_meta_hidden_states_2:
    name = "in_0"
    original_name = "hidden_states_2"
    shape = [2, 32, 896]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.008
    std = 0.999
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_"
    shape = [128, 896]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_bias_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
