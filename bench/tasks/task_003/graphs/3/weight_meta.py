class Program_weight_tensor_meta_features_105:
    name = "in_0"
    original_name = "features_105"
    shape = [4, 1024, 4, 4]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_modules_25_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_layer_modules_25_modules_normalization_buffers_running_mean_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_modules_25_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_layer_modules_25_modules_normalization_buffers_running_var_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_modules_25_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layer_modules_25_modules_normalization_parameters_weight_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_modules_25_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_layer_modules_25_modules_normalization_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
