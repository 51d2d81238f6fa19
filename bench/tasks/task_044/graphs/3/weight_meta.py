class Program_weight_tensor_meta_add_1:
    name = "in_0"
    original_name = "add_1"
    shape = [4, 32, 32, 160]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_features_7:
    name = "in_1"
    original_name = "features_7"
    shape = [4, 32, 32, 160]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.006
    std = 0.063
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv2_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv2_parameters_weight_"
    shape = [40, 160]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv2_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_pwconv2_parameters_bias_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
