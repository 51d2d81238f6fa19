class Program_weight_tensor_meta_hidden_states_11:
    name = "in_0"
    original_name = "hidden_states_11"
    shape = [4, 512, 49]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.163
    std = 0.397
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_extractor_modules_conv_layers_modules_5_modules_conv_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_feature_extractor_modules_conv_layers_modules_5_modules_conv_parameters_weight_"
    shape = [512, 512, 2]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.044
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_extractor_modules_conv_layers_modules_6_modules_conv_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_feature_extractor_modules_conv_layers_modules_6_modules_conv_parameters_weight_"
    shape = [512, 512, 2]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.044
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_layer_norm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_feature_projection_modules_layer_norm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_layer_norm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_feature_projection_modules_layer_norm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
