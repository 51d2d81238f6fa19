class Program_weight_tensor_meta_hidden_states_23:
    name = "in_0"
    original_name = "hidden_states_23"
    shape = [2, 50, 256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.203
    data = None


class Program_weight_tensor_meta_hidden_states_19:
    name = "in_1"
    original_name = "hidden_states_19"
    shape = [2, 50, 256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.400
    std = 1.743
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layer_norm_parameters_weight_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layer_norm_parameters_bias_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
