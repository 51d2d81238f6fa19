class Program_weight_tensor_meta_input_values_1:
    name = "in_0"
    original_name = "input_values_1"
    shape = [4, 1, 128, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.999
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_weight_"
    shape = [384, 1, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_embeddings_modules_patch_embeddings_modules_projection_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_cls_token_:
    name = "in_3"
    original_name = "L_self_modules_embeddings_parameters_cls_token_"
    shape = [1, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_distillation_token_:
    name = "in_4"
    original_name = "L_self_modules_embeddings_parameters_distillation_token_"
    shape = [1, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_parameters_position_embeddings_:
    name = "in_5"
    original_name = "L_self_modules_embeddings_parameters_position_embeddings_"
    shape = [1, 302, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_layernorm_before_parameters_weight_:
    name = "in_6"
    original_name = "L_self_modules_layers_modules_0_modules_layernorm_before_parameters_weight_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_layernorm_before_parameters_bias_:
    name = "in_7"
    original_name = "L_self_modules_layers_modules_0_modules_layernorm_before_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
