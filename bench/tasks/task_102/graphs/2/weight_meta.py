class Program_weight_tensor_meta_embeddings_5:
    name = "in_0"
    original_name = "embeddings_5"
    shape = [2, 400, 192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.393
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_downsample_modules_norm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_downsample_modules_norm_parameters_weight_"
    shape = [192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_downsample_modules_norm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_downsample_modules_norm_parameters_bias_"
    shape = [192]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
