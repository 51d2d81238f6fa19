class Program_weight_tensor_meta_hidden_states_14:
    name = "in_0"
    original_name = "hidden_states_14"
    shape = [2, 197, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.109
    std = 0.310
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_mlp_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_1_modules_mlp_modules_fc2_parameters_weight_"
    shape = [768, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_mlp_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_1_modules_mlp_modules_fc2_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_11:
    name = "in_3"
    original_name = "hidden_states_11"
    shape = [2, 197, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.007
    std = 0.663
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layernorm_parameters_weight_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layernorm_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
