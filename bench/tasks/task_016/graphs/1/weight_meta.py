class Program_weight_tensor_meta_position_ids:
    name = "in_0"
    original_name = "position_ids"
    shape = [1, 64]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_position_embeddings_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_position_embeddings_parameters_weight_"
    shape = [512, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_token_type_ids:
    name = "in_2"
    original_name = "token_type_ids"
    shape = [4, 64]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 0


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_token_type_embeddings_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_embeddings_modules_token_type_embeddings_parameters_weight_"
    shape = [2, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.020
    data = None


class Program_weight_tensor_meta_inputs_embeds_2:
    name = "in_4"
    original_name = "inputs_embeds_2"
    shape = [4, 64, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.008
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_LayerNorm_parameters_weight_:
    name = "in_5"
    original_name = "L_self_modules_embeddings_modules_LayerNorm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_LayerNorm_parameters_bias_:
    name = "in_6"
    original_name = "L_self_modules_embeddings_modules_LayerNorm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_kwargs_attention_mask_:
    name = "in_7"
    original_name = "L_kwargs_attention_mask_"
    shape = [4, 64]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 1
