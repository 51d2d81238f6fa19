class Program_weight_tensor_meta_embeddings_1:
    name = "in_0"
    original_name = "embeddings_1"
    shape = [1, 128, 128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.036
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_LayerNorm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_LayerNorm_parameters_weight_"
    shape = [128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_LayerNorm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_modules_LayerNorm_parameters_bias_"
    shape = [128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
