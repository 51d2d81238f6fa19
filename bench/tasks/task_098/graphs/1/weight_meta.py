class Program_weight_tensor_meta_L_kwargs_pixel_values_:
    name = "in_0"
    original_name = "L_kwargs_pixel_values_"
    shape = [2, 3, 224, 224]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.999
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
