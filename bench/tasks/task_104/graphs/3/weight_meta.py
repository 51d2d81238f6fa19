class Program_weight_tensor_meta_context_layer_1:
    name = "in_0"
    original_name = "context_layer_1"
    shape = [1, 128, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.209
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_self_attention_modules_dense_parameters_weight_:
    name = "in_1"
    original_name = "L_args_0_modules_h_modules_0_modules_self_attention_modules_dense_parameters_weight_"
    shape = [1024, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_self_attention_modules_dense_parameters_bias_:
    name = "in_2"
    original_name = "L_args_0_modules_h_modules_0_modules_self_attention_modules_dense_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
