class Program_weight_tensor_meta_features_15:
    name = "in_0"
    original_name = "features_15"
    shape = [2, 192, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.391
    data = None


class Program_weight_tensor_meta_features_23:
    name = "in_1"
    original_name = "features_23"
    shape = [2, 192, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_0_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_0_parameters_weight_"
    shape = [192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_0_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_0_parameters_bias_"
    shape = [192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_1_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_1_parameters_weight_"
    shape = [384, 192, 2, 2]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_1_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_downsampling_layer_modules_1_parameters_bias_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
