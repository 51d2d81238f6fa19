class Program_weight_tensor_meta_embeddings_2:
    name = "in_0"
    original_name = "embeddings_2"
    shape = [4, 197, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.552
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_layernorm_before_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_layernorm_before_parameters_weight_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_layernorm_before_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_layernorm_before_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
