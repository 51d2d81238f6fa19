class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [2, 1600, 32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_q_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_q_proj_parameters_weight_"
    shape = [32, 32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.019
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_q_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_q_proj_parameters_bias_"
    shape = [32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
