class Program_weight_tensor_meta_features_4:
    name = "in_0"
    original_name = "features_4"
    shape = [1, 56, 56, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.137
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_weight_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_bias_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv1_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv1_parameters_weight_"
    shape = [160, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv1_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv1_parameters_bias_"
    shape = [160]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
