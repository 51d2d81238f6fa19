class Program_weight_tensor_meta_attention_probs_1:
    name = "in_0"
    original_name = "attention_probs_1"
    shape = [8, 4, 196, 196]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.005
    std = 0.000
    data = None


class Program_weight_tensor_meta_value_layer:
    name = "in_1"
    original_name = "value_layer"
    shape = [8, 4, 196, 16]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_"
    shape = [64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_2_modules_transformer_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_"
    shape = [64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
