class Program_weight_tensor_meta_extract_features:
    name = "in_0"
    original_name = "extract_features"
    shape = [2, 24, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.071
    std = 0.240
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_layer_norm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_feature_projection_modules_layer_norm_parameters_weight_"
    shape = [512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_layer_norm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_feature_projection_modules_layer_norm_parameters_bias_"
    shape = [512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_projection_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_feature_projection_modules_projection_parameters_weight_"
    shape = [768, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_projection_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_feature_projection_modules_projection_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
