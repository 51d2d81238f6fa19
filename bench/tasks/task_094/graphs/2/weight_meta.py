class Program_weight_tensor_meta_features:
    name = "in_0"
    original_name = "features"
    shape = [2, 16, 112, 112]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.099
    data = None


class Program_weight_tensor_meta_L_self_modules_conv_stem_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_conv_stem_modules_normalization_buffers_running_mean_"
    shape = [16]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_conv_stem_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_conv_stem_modules_normalization_buffers_running_var_"
    shape = [16]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_conv_stem_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_conv_stem_modules_normalization_parameters_weight_"
    shape = [16]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.007
    std = 0.021
    data = None


class Program_weight_tensor_meta_L_self_modules_conv_stem_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_conv_stem_modules_normalization_parameters_bias_"
    shape = [16]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
