class Program_weight_tensor_meta_conv2d:
    name = "in_0"
    original_name = "conv2d"
    shape = [2, 384, 12, 25]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.320
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_cls_token_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_parameters_cls_token_"
    shape = [1, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_distillation_token_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_parameters_distillation_token_"
    shape = [1, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_position_embeddings_:
    name = "in_3"
    original_name = "L_self_modules_embeddings_parameters_position_embeddings_"
    shape = [1, 302, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_layernorm_before_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_0_modules_layernorm_before_parameters_weight_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_layernorm_before_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layers_modules_0_modules_layernorm_before_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
