class Program_weight_tensor_meta_L_args_0_modules_rotary_emb_buffers_inv_freq_:
    name = "in_0"
    original_name = "L_args_0_modules_rotary_emb_buffers_inv_freq_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.125
    std = 0.240
    data = None
    min_val = 0.000
    max_val = 1.000


class Program_weight_tensor_meta_float_1:
    name = "in_1"
    original_name = "float_1"
    shape = [1, 32, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 15.500
    std = 9.381
    data = None
    min_val = 0.000
    max_val = 31.000


class Program_weight_tensor_meta_inputs_embeds:
    name = "in_2"
    original_name = "inputs_embeds"
    shape = [2, 32, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_input_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_args_0_modules_h_modules_0_modules_input_layernorm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_input_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_args_0_modules_h_modules_0_modules_input_layernorm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_args_0_modules_h_modules_0_modules_self_attention_modules_query_key_value_parameters_weight_:
    name = "in_5"
    original_name = "L_args_0_modules_h_modules_0_modules_self_attention_modules_query_key_value_parameters_weight_"
    shape = [640, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
