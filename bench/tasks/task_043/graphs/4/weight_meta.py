class Program_weight_tensor_meta_add_7:
    name = "in_0"
    original_name = "add_7"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.513
    data = None


class Program_weight_tensor_meta_inputs_embeds_1:
    name = "in_1"
    original_name = "inputs_embeds_1"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_input_layernorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_1_modules_input_layernorm_parameters_weight_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_input_layernorm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_1_modules_input_layernorm_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_"
    shape = [1024, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
