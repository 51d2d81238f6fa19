class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [2, 32, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.013
    data = None


class Program_weight_tensor_meta_embedding_output:
    name = "in_1"
    original_name = "embedding_output"
    shape = [2, 32, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.011
    std = 0.220
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_weight_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
