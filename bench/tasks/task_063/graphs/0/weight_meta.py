class Program_weight_tensor_meta_hidden_states_13:
    name = "in_0"
    original_name = "hidden_states_13"
    shape = [4, 1024, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.003
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_weight_"
    shape = [32, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_mlp_modules_fc2_parameters_bias_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_6:
    name = "in_3"
    original_name = "hidden_states_6"
    shape = [4, 1024, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None
