class Program_weight_tensor_meta_L_kwargs_pixel_values_:
    name = "in_0"
    original_name = "L_kwargs_pixel_values_"
    shape = [1, 3, 224, 224]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_parameters_weight_"
    shape = [40, 3, 4, 4]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_parameters_bias_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_embeddings_modules_layernorm_parameters_weight_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_embeddings_modules_layernorm_parameters_bias_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_dwconv_parameters_weight_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_dwconv_parameters_weight_"
    shape = [40, 1, 7, 7]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_dwconv_parameters_bias_:
    name = "in_6"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_dwconv_parameters_bias_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_weight_:
    name = "in_7"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_weight_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_bias_:
    name = "in_8"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layernorm_parameters_bias_"
    shape = [40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
