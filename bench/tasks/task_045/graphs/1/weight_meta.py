class Program_weight_tensor_meta_features_2:
    name = "in_0"
    original_name = "features_2"
    shape = [1, 40, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_features_9:
    name = "in_1"
    original_name = "features_9"
    shape = [1, 40, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.016
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_0_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_0_parameters_weight_"
    shape = [40]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_0_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_0_parameters_bias_"
    shape = [40]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_1_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_1_parameters_weight_"
    shape = [80, 40, 2, 2]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_1_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_downsampling_layer_modules_1_parameters_bias_"
    shape = [80]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
