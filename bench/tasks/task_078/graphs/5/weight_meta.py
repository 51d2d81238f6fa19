class Program_weight_tensor_meta_embeddings_3:
    name = "in_0"
    original_name = "embeddings_3"
    shape = [4, 64, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_query_layer:
    name = "in_3"
    original_name = "query_layer"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.017
    std = 0.551
    data = None


class Program_weight_tensor_meta_key_layer:
    name = "in_4"
    original_name = "key_layer"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.022
    std = 0.561
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_5"
    original_name = "attention_mask_1"
    shape = [4, 1, 64, 64]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None
