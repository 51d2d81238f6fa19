class Program_weight_tensor_meta_hidden_states_69:
    name = "in_0"
    original_name = "hidden_states_69"
    shape = [4, 16, 96]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_66:
    name = "in_1"
    original_name = "hidden_states_66"
    shape = [4, 16, 96]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_4_modules_layernorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_4_modules_layernorm_parameters_weight_"
    shape = [96]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_4_modules_layernorm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_4_modules_layernorm_parameters_bias_"
    shape = [96]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
