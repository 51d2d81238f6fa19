class Program_weight_tensor_meta_attn_weights_2:
    name = "in_0"
    original_name = "attn_weights_2"
    shape = [1, 4, 100, 100]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.010
    std = 0.001
    data = None
    min_val = 0.006
    max_val = 0.016


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [1, 4, 100, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.321
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
