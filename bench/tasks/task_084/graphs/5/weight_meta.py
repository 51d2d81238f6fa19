class Program_weight_tensor_meta_attn_weights_2:
    name = "in_0"
    original_name = "attn_weights_2"
    shape = [4, 4, 25, 25]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.040
    std = 0.004
    data = None
    min_val = 0.027
    max_val = 0.057


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [4, 4, 25, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.319
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_out_proj_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_out_proj_parameters_weight_"
    shape = [256, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_out_proj_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_out_proj_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
