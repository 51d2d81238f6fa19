class Program_weight_tensor_meta_hidden_states_26:
    name = "in_0"
    original_name = "hidden_states_26"
    shape = [2, 24, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_self_attn_modules_linear_v_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_self_attn_modules_linear_v_parameters_weight_"
    shape = [512, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_self_attn_modules_linear_v_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_self_attn_modules_linear_v_parameters_bias_"
    shape = [512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_3"
    original_name = "query_states"
    shape = [2, 8, 24, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 0.454
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_4"
    original_name = "key_states"
    shape = [2, 8, 24, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.004
    std = 0.443
    data = None
