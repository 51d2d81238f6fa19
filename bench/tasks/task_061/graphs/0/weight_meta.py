class Program_weight_tensor_meta_attn_output_3:
    name = "in_0"
    original_name = "attn_output_3"
    shape = [4, 64, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.008
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_"
    shape = [128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_layer_input_1:
    name = "in_3"
    original_name = "layer_input_1"
    shape = [4, 64, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.013
    data = None
