class Program_weight_tensor_meta_mean_4:
    name = "in_0"
    original_name = "mean_4"
    shape = [4, 320]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.139
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layernorm_parameters_weight_"
    shape = [320]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layernorm_parameters_bias_"
    shape = [320]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
