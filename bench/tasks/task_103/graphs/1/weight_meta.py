class Program_weight_tensor_meta_mean:
    name = "in_0"
    original_name = "mean"
    shape = [2, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.154
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layernorm_parameters_weight_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layernorm_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
