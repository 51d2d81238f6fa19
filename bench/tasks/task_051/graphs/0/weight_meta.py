class Program_weight_tensor_meta_L_kwargs_pixel_values_:
    name = "in_0"
    original_name = "L_kwargs_pixel_values_"
    shape = [1, 3, 224, 224]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 1.001
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_weight_"
    shape = [768, 3, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_cls_token_:
    name = "in_3"
    original_name = "L_self_modules_embeddings_parameters_cls_token_"
    shape = [1, 1, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.020
    data = None
