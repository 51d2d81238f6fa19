class Program_weight_tensor_meta_hidden_states_18:
    name = "in_0"
    original_name = "hidden_states_18"
    shape = [2, 32, 40, 40]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_patch_embeddings_modules_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_stages_modules_1_modules_patch_embeddings_modules_proj_parameters_weight_"
    shape = [64, 32, 3, 3]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_patch_embeddings_modules_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_stages_modules_1_modules_patch_embeddings_modules_proj_parameters_bias_"
    shape = [64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_patch_embeddings_modules_layer_norm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_stages_modules_1_modules_patch_embeddings_modules_layer_norm_parameters_weight_"
    shape = [64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_patch_embeddings_modules_layer_norm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_stages_modules_1_modules_patch_embeddings_modules_layer_norm_parameters_bias_"
    shape = [64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
