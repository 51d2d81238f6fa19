class Program_weight_tensor_meta_hidden_states_11:
    name = "in_0"
    original_name = "hidden_states_11"
    shape = [2, 50, 256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_fc1_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_fc1_parameters_weight_"
    shape = [2048, 256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_fc1_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_fc1_parameters_bias_"
    shape = [2048]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
