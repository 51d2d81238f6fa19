class Program_weight_tensor_meta_hidden_states_16:
    name = "in_0"
    original_name = "hidden_states_16"
    shape = [4, 500, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.047
    std = 0.204
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_1_modules_fc2_parameters_weight_"
    shape = [384, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_1_modules_fc2_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_13:
    name = "in_3"
    original_name = "hidden_states_13"
    shape = [4, 500, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.264
    std = 0.689
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layer_norm_parameters_weight_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layer_norm_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layer_norm_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
