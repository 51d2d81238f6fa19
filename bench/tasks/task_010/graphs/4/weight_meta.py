class Program_weight_tensor_meta_hidden_states_7:
    name = "in_0"
    original_name = "hidden_states_7"
    shape = [4, 64, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.359
    data = None


class Program_weight_tensor_meta_attn_output_11:
    name = "in_1"
    original_name = "attn_output_11"
    shape = [4, 64, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.137
    data = None


class Program_weight_tensor_meta_hidden_states_4:
    name = "in_2"
    original_name = "hidden_states_4"
    shape = [4, 64, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.004
    std = 0.365
    data = None


class Program_weight_tensor_meta_L_self_modules_final_layer_norm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_final_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_final_layer_norm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_final_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
