class Program_weight_tensor_meta_hidden_states_15:
    name = "in_0"
    original_name = "hidden_states_15"
    shape = [2, 122, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.169
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_1_modules_layer_scale2_parameters_lambda1_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_1_modules_layer_scale2_parameters_lambda1_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_11:
    name = "in_2"
    original_name = "hidden_states_11"
    shape = [2, 122, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.007
    std = 0.514
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layernorm_parameters_weight_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_layernorm_parameters_bias_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
