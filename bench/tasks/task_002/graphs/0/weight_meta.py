class Program_weight_tensor_meta_attn_output_4:
    name = "in_0"
    original_name = "attn_output_4"
    shape = [1, 128, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.026
    data = None


class Program_weight_tensor_meta_embeddings_2:
    name = "in_1"
    original_name = "embeddings_2"
    shape = [1, 128, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_transformer_modules_layer_modules_0_modules_sa_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_transformer_modules_layer_modules_0_modules_sa_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_transformer_modules_layer_modules_0_modules_sa_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_transformer_modules_layer_modules_0_modules_sa_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
