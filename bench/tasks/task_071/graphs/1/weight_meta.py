class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [1, 128, 1024]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.988
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_fc1_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_fc1_parameters_weight_"
    shape = [4096, 1024]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_fc1_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_fc1_parameters_bias_"
    shape = [4096]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
