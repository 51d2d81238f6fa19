class Program_weight_tensor_meta_features_6:
    name = "in_0"
    original_name = "features_6"
    shape = [1, 56, 56, 160]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.125
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_grn_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_grn_parameters_weight_"
    shape = [1, 1, 1, 160]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_grn_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_grn_parameters_bias_"
    shape = [1, 1, 1, 160]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
