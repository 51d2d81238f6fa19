class Program_weight_tensor_meta_attention_probs_5:
    name = "in_0"
    original_name = "attention_probs_5"
    shape = [16, 4, 49, 49]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.020
    std = 0.000
    data = None


class Program_weight_tensor_meta_value_layer_2:
    name = "in_1"
    original_name = "value_layer_2"
    shape = [16, 4, 49, 20]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_3_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_3_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_"
    shape = [80, 80]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_3_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_3_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_"
    shape = [80]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
