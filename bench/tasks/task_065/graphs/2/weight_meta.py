class Program_weight_tensor_meta_hidden_states_22:
    name = "in_0"
    original_name = "hidden_states_22"
    shape = [2, 50, 2048]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.127
    std = 0.186
    data = None
    min_val = 0.000
    max_val = 1.415


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_1_modules_fc2_parameters_weight_"
    shape = [256, 2048]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_1_modules_fc2_parameters_bias_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_19:
    name = "in_3"
    original_name = "hidden_states_19"
    shape = [2, 50, 256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.400
    std = 1.743
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layer_norm_parameters_weight_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layer_norm_parameters_bias_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
