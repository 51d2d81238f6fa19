class Program_weight_tensor_meta_attn_weights_3:
    name = "in_0"
    original_name = "attn_weights_3"
    shape = [4, 12, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.016
    std = 0.005
    data = None
    min_val = 0.000
    max_val = 0.023


class Program_weight_tensor_meta_value_layer:
    name = "in_1"
    original_name = "value_layer"
    shape = [4, 12, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.126
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_attention_modules_dense_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_attention_modules_dense_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_attention_modules_dense_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_attention_modules_dense_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
