class Program_weight_tensor_meta_variance:
    name = "in_0"
    original_name = "variance"
    shape = [1, 128, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.005
    std = 0.059
    data = None
    min_val = 0.865
    max_val = 1.180


class Program_weight_tensor_meta_hidden_states:
    name = "in_1"
    original_name = "hidden_states"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 1.002
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_"
    shape = [512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_q_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_q_parameters_weight_"
    shape = [512, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.006
    data = None
