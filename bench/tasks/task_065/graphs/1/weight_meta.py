class Program_weight_tensor_meta_attn_output_3:
    name = "in_0"
    original_name = "attn_output_3"
    shape = [1, 128, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.003
    std = 0.053
    data = None


class Program_weight_tensor_meta_L_self_modules_self_attn_modules_out_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_self_attn_modules_out_proj_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_self_attn_modules_out_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_self_attn_modules_out_proj_parameters_bias_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_hidden_states_:
    name = "in_3"
    original_name = "L_hidden_states_"
    shape = [1, 128, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.994
    data = None


class Program_weight_tensor_meta_L_self_modules_self_attn_layer_norm_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_self_attn_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_self_attn_layer_norm_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_self_attn_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
