class Program_weight_tensor_meta_hidden_states_65:
    name = "in_0"
    original_name = "hidden_states_65"
    shape = [1, 288, 56, 56]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_buffers_running_mean_"
    shape = [288]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_buffers_running_var_"
    shape = [288]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_parameters_weight_"
    shape = [288]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.021
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_blocks_modules_5_modules_expansion_modules_expand_bn_parameters_bias_"
    shape = [288]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
