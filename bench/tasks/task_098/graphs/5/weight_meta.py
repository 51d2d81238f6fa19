class Program_weight_tensor_meta_ctx_all_2:
    name = "in_0"
    original_name = "ctx_all_2"
    shape = [2, 96, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_weight_"
    shape = [96, 96, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_bias_"
    shape = [96]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
