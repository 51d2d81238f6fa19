class Program_weight_tensor_meta_hidden_states_2:
    name = "in_0"
    original_name = "hidden_states_2"
    shape = [4, 64, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.134
    std = 0.356
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_weight_"
    shape = [1024, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_attn_outputs:
    name = "in_3"
    original_name = "attn_outputs"
    shape = [4, 64, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.116
    data = None
