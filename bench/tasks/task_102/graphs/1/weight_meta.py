class Program_weight_tensor_meta_pixel_values_1:
    name = "in_0"
    original_name = "pixel_values_1"
    shape = [1, 3136, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.239
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_embedding_modules_convolution_embeddings_modules_normalization_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_embedding_modules_convolution_embeddings_modules_normalization_parameters_weight_"
    shape = [64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_embedding_modules_convolution_embeddings_modules_normalization_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_embedding_modules_convolution_embeddings_modules_normalization_parameters_bias_"
    shape = [64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
