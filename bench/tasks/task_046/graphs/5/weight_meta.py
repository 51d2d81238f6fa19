class Program_weight_tensor_meta_variance_1:
    name = "in_0"
    original_name = "variance_1"
    shape = [2, 32, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.007
    std = 0.010
    data = None
    min_val = 0.001
    max_val = 0.054


class Program_weight_tensor_meta_hidden_states_6:
    name = "in_1"
    original_name = "hidden_states_6"
    shape = [2, 32, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.083
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_"
    shape = [1792, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None
