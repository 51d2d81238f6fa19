class Program_weight_tensor_meta_L_pixel_values_:
    name = "in_0"
    original_name = "L_pixel_values_"
    shape = [1, 3, 224, 224]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 1.004
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_patch_embeddings_modules_0_modules_projection_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_patch_embeddings_modules_0_modules_projection_parameters_weight_"
    shape = [64, 3, 7, 7]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_patch_embeddings_modules_0_modules_projection_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_patch_embeddings_modules_0_modules_projection_parameters_bias_"
    shape = [64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
