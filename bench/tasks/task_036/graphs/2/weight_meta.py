class Program_weight_tensor_meta_hidden_states_59:
    name = "in_0"
    original_name = "hidden_states_59"
    shape = [1, 768, 49]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.015
    std = 0.859
    data = None


class Program_weight_tensor_meta_hidden_states_37:
    name = "in_1"
    original_name = "hidden_states_37"
    shape = [1, 49, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.025
    std = 0.573
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
