class Program_weight_tensor_meta_embedding_output:
    name = "in_0"
    original_name = "embedding_output"
    shape = [1, 128, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.013
    std = 0.220
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_"
    shape = [256, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_query_layer:
    name = "in_3"
    original_name = "query_layer"
    shape = [1, 4, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.073
    data = None


class Program_weight_tensor_meta_key_layer:
    name = "in_4"
    original_name = "key_layer"
    shape = [1, 4, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.070
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_5"
    original_name = "attention_mask_1"
    shape = [1, 1, 128, 128]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None
