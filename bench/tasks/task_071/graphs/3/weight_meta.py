class Program_weight_tensor_meta_output_3:
    name = "in_0"
    original_name = "output_3"
    shape = [2, 16, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_1_modules_0_modules_ffn_modules_linear_1_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_blocks_modules_1_modules_0_modules_ffn_modules_linear_1_parameters_weight_"
    shape = [3072, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.016
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_1_modules_0_modules_ffn_modules_linear_1_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_blocks_modules_1_modules_0_modules_ffn_modules_linear_1_parameters_bias_"
    shape = [3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
