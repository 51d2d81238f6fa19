class Program_weight_tensor_meta_attn_output_4:
    name = "in_0"
    original_name = "attn_output_4"
    shape = [2, 32, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.062
    data = None


class Program_weight_tensor_meta_hidden_states_2:
    name = "in_1"
    original_name = "hidden_states_2"
    shape = [2, 32, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.994
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
