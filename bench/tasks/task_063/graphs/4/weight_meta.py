class Program_weight_tensor_meta_hidden_states_6:
    name = "in_0"
    original_name = "hidden_states_6"
    shape = [1, 3136, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.015
    std = 0.100
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_weight_"
    shape = [96, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_bias_"
    shape = [96]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_3:
    name = "in_3"
    original_name = "hidden_states_3"
    shape = [1, 3136, 96]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None
