class Program_weight_tensor_meta_hidden_states_5:
    name = "in_0"
    original_name = "hidden_states_5"
    shape = [1, 128, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_hidden_states_9:
    name = "in_1"
    original_name = "hidden_states_9"
    shape = [1, 128, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.004
    std = 0.363
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_final_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_final_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_final_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_final_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
