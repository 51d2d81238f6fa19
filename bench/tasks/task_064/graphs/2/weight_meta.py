class Program_weight_tensor_meta_h_2:
    name = "in_0"
    original_name = "h_2"
    shape = [4, 64, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.073
    std = 0.243
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_0_modules_0_modules_ffn_modules_linear_2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_blocks_modules_0_modules_0_modules_ffn_modules_linear_2_parameters_weight_"
    shape = [768, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.016
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_0_modules_0_modules_ffn_modules_linear_2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_blocks_modules_0_modules_0_modules_ffn_modules_linear_2_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_output:
    name = "in_3"
    original_name = "output"
    shape = [4, 64, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None
