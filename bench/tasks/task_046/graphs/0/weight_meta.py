class Program_weight_tensor_meta_variance_3:
    name = "in_0"
    original_name = "variance_3"
    shape = [2, 32, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.009
    std = 0.008
    data = None
    min_val = 0.003
    max_val = 0.043


class Program_weight_tensor_meta_hidden_states_10:
    name = "in_1"
    original_name = "hidden_states_10"
    shape = [2, 32, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.095
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
    shape = [1536, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
