class Program_weight_tensor_meta_ctx_all_4:
    name = "in_0"
    original_name = "ctx_all_4"
    shape = [2, 192, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.002
    data = None


class Program_weight_tensor_meta_mul_8:
    name = "in_1"
    original_name = "mul_8"
    shape = [2, 192, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_weight_"
    shape = [192, 192, 1, 1]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_modulation_modules_projection_context_parameters_bias_"
    shape = [192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
