class Program_weight_tensor_meta_hidden_states_55:
    name = "in_0"
    original_name = "hidden_states_55"
    shape = [2, 12, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.010
    std = 1.068
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_1_modules_final_layer_norm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_1_modules_final_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_1_modules_final_layer_norm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_1_modules_final_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_upsample_modules_projection_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_upsample_modules_projection_parameters_weight_"
    shape = [1536, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_upsample_modules_projection_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_upsample_modules_projection_parameters_bias_"
    shape = [1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
