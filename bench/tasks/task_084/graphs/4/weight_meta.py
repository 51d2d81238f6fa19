class Program_weight_tensor_meta_attn_weights_2:
    name = "in_0"
    original_name = "attn_weights_2"
    shape = [4, 6, 198, 198]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.005
    std = 0.001
    data = None
    min_val = 0.002
    max_val = 0.011


class Program_weight_tensor_meta_value_states:
    name = "in_1"
    original_name = "value_states"
    shape = [4, 6, 198, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.390
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_attention_modules_o_proj_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_attention_modules_o_proj_parameters_weight_"
    shape = [384, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_attention_modules_o_proj_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_attention_modules_o_proj_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
