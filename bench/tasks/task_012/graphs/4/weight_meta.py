class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [1, 128, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 0.118
    data = None


class Program_weight_tensor_meta_embeddings_3:
    name = "in_1"
    original_name = "embeddings_3"
    shape = [1, 128, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
