class Program_weight_tensor_meta_hidden_states_5:
    name = "in_0"
    original_name = "hidden_states_5"
    shape = [2, 122, 1536]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.056
    std = 0.210
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_mlp_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_mlp_modules_fc2_parameters_weight_"
    shape = [384, 1536]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_mlp_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_mlp_modules_fc2_parameters_bias_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_scale2_parameters_lambda1_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_scale2_parameters_lambda1_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None
