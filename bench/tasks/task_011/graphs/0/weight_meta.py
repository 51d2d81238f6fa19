class Program_weight_tensor_meta_hidden_states_23:
    name = "in_0"
    original_name = "hidden_states_23"
    shape = [1, 100, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.202
    data = None


class Program_weight_tensor_meta_hidden_states_19:
    name = "in_1"
    original_name = "hidden_states_19"
    shape = [1, 100, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.376
    std = 1.784
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layer_norm_parameters_weight_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layer_norm_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
