class Program_weight_tensor_meta_hidden_states_8:
    name = "in_0"
    original_name = "hidden_states_8"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.005
    std = 0.494
    data = None


class Program_weight_tensor_meta_attn_outputs_1:
    name = "in_1"
    original_name = "attn_outputs_1"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.008
    std = 0.219
    data = None


class Program_weight_tensor_meta_hidden_states_4:
    name = "in_2"
    original_name = "hidden_states_4"
    shape = [2, 32, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 0.514
    data = None


class Program_weight_tensor_meta_L_self_modules_final_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_final_layernorm_parameters_weight_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_final_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_final_layernorm_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
