class Program_weight_tensor_meta_hidden_states_18:
    name = "in_0"
    original_name = "hidden_states_18"
    shape = [1, 49, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.007
    std = 0.572
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_layer_norm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_layer_norm_parameters_weight_"
    shape = [512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_layer_norm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_layer_norm_parameters_bias_"
    shape = [512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_intermediate_dense_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_intermediate_dense_parameters_weight_"
    shape = [2048, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_intermediate_dense_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_intermediate_dense_parameters_bias_"
    shape = [2048]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
