class Program_weight_tensor_meta_hidden_states_26:
    name = "in_0"
    original_name = "hidden_states_26"
    shape = [4, 256, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_fc1_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_fc1_parameters_weight_"
    shape = [256, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_fc1_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_fc1_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_weight_"
    shape = [256, 1, 3, 3]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_stages_modules_1_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
