class Program_weight_tensor_meta_hidden_states_59:
    name = "in_0"
    original_name = "hidden_states_59"
    shape = [2, 768, 24]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.007
    std = 0.819
    data = None


class Program_weight_tensor_meta_hidden_states_37:
    name = "in_1"
    original_name = "hidden_states_37"
    shape = [2, 24, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.028
    std = 0.575
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
