class Program_weight_tensor_meta_hidden_states_2:
    name = "in_0"
    original_name = "hidden_states_2"
    shape = [4, 64, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.105
    std = 0.304
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_weight_"
    shape = [768, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_dense_4h_to_h_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_attn_output_5:
    name = "in_3"
    original_name = "attn_output_5"
    shape = [4, 64, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.086
    data = None
