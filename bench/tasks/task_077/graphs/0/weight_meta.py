class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [2, 25, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_k_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_k_proj_parameters_weight_"
    shape = [32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_k_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_k_proj_parameters_bias_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_v_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_v_proj_parameters_weight_"
    shape = [32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_v_proj_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_v_proj_parameters_bias_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
