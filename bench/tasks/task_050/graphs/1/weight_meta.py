class Program_weight_tensor_meta_features_2:
    name = "in_0"
    original_name = "features_2"
    shape = [4, 16, 112, 112]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.001
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_convolution_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_convolution_parameters_weight_"
    shape = [64, 16, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.019
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_buffers_running_mean_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_buffers_running_mean_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_buffers_running_var_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_buffers_running_var_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_parameters_weight_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 0.018
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_modules_0_modules_expand_1x1_modules_normalization_parameters_bias_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
