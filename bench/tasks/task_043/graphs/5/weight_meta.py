class Program_weight_tensor_meta_hidden_states_6:
    name = "in_0"
    original_name = "hidden_states_6"
    shape = [8, 196, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_2:
    name = "in_1"
    original_name = "hidden_states_2"
    shape = [8, 196, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_layernorm_before_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_layernorm_before_parameters_weight_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_layernorm_before_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_layernorm_before_parameters_bias_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_attention_modules_attention_modules_query_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_attention_modules_attention_modules_query_parameters_weight_"
    shape = [64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_attention_modules_attention_modules_query_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_1_modules_attention_modules_attention_modules_query_parameters_bias_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
