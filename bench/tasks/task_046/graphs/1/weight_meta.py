class Program_weight_tensor_meta_variance:
    name = "in_0"
    original_name = "variance"
    shape = [4, 64, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
    min_val = 0.000
    max_val = 0.001


class Program_weight_tensor_meta_hidden_states:
    name = "in_1"
    original_name = "hidden_states"
    shape = [4, 64, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_"
    shape = [512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_"
    shape = [512, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
