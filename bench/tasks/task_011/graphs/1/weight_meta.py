class Program_weight_tensor_meta_hidden_states_17:
    name = "in_0"
    original_name = "hidden_states_17"
    shape = [2, 500, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.004
    std = 0.165
    data = None


class Program_weight_tensor_meta_hidden_states_13:
    name = "in_1"
    original_name = "hidden_states_13"
    shape = [2, 500, 384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.264
    std = 0.689
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layer_norm_parameters_weight_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layer_norm_parameters_bias_"
    shape = [384]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
