class Program_weight_tensor_meta_hidden_states_8:
    name = "in_0"
    original_name = "hidden_states_8"
    shape = [1, 100, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_"
    shape = [256, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_bias_"
    shape = [256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_3"
    original_name = "key_states"
    shape = [1, 4, 100, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.321
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_4"
    original_name = "query_states"
    shape = [1, 4, 100, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.008
    std = 0.321
    data = None
