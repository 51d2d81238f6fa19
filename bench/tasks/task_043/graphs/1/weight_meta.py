class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [2, 500, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.275
    std = 0.657
    data = None


class Program_weight_tensor_meta_hidden_states_9:
    name = "in_1"
    original_name = "hidden_states_9"
    shape = [2, 500, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.008
    std = 0.170
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_layer_norm_parameters_weight_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_layer_norm_parameters_bias_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_"
    shape = [384, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_bias_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
