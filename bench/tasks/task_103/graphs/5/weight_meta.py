class Program_weight_tensor_meta_embeddings_1:
    name = "in_0"
    original_name = "embeddings_1"
    shape = [1, 128, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.035
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_LayerNorm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_LayerNorm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_LayerNorm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_modules_LayerNorm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
