class Program_weight_tensor_meta_L_pixel_values_:
    name = "in_0"
    original_name = "L_pixel_values_"
    shape = [2, 3, 160, 160]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.997
    data = None


class Program_weight_tensor_meta_L_self_modules_embedder_modules_embedder_modules_convolution_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embedder_modules_embedder_modules_convolution_parameters_weight_"
    shape = [64, 3, 7, 7]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.025
    data = None


class Program_weight_tensor_meta_L_self_modules_embedder_modules_embedder_modules_normalization_buffers_running_mean_:
    name = "in_2"
    original_name = "L_self_modules_embedder_modules_embedder_modules_normalization_buffers_running_mean_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embedder_modules_embedder_modules_normalization_buffers_running_var_:
    name = "in_3"
    original_name = "L_self_modules_embedder_modules_embedder_modules_normalization_buffers_running_var_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embedder_modules_embedder_modules_normalization_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_embedder_modules_embedder_modules_normalization_parameters_weight_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embedder_modules_embedder_modules_normalization_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_embedder_modules_embedder_modules_normalization_parameters_bias_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
