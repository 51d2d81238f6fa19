class Program_weight_tensor_meta_hidden_states_20:
    name = "in_0"
    original_name = "hidden_states_20"
    shape = [1, 49, 2048]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.005
    std = 0.450
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_output_dense_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_output_dense_parameters_weight_"
    shape = [512, 2048]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_output_dense_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_ffn1_modules_output_dense_parameters_bias_"
    shape = [512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
