class Program_weight_tensor_meta_add_5:
    name = "in_0"
    original_name = "add_5"
    shape = [1, 28, 28, 320]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_features_19:
    name = "in_1"
    original_name = "features_19"
    shape = [1, 28, 28, 320]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.013
    std = 0.092
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_pwconv2_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_pwconv2_parameters_weight_"
    shape = [80, 320]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_pwconv2_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_pwconv2_parameters_bias_"
    shape = [80]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
