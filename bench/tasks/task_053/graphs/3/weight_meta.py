class Program_weight_tensor_meta_L_pixel_values_:
    name = "in_0"
    original_name = "L_pixel_values_"
    shape = [2, 3, 160, 160]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.002
    std = 0.998
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_weight_"
    shape = [96, 3, 4, 4]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_bias_"
    shape = [96]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_norm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_embeddings_modules_norm_parameters_weight_"
    shape = [96]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_norm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_embeddings_modules_norm_parameters_bias_"
    shape = [96]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
