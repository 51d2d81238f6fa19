class Program_weight_tensor_meta_hidden_states_1:
    name = "in_0"
    original_name = "hidden_states_1"
    shape = [2, 32, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_sequence_reduction_modules_sequence_reduction_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_sequence_reduction_modules_sequence_reduction_parameters_weight_"
    shape = [32, 32, 8, 8]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_sequence_reduction_modules_sequence_reduction_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_stages_modules_0_modules_blocks_modules_0_modules_attention_modules_sequence_reduction_modules_sequence_reduction_parameters_bias_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
