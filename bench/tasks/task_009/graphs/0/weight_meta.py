class Program_weight_tensor_meta_hidden_states_10:
    name = "in_0"
    original_name = "hidden_states_10"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.005
    std = 0.232
    data = None


class Program_weight_tensor_meta_attn_output_11:
    name = "in_1"
    original_name = "attn_output_11"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.084
    data = None


class Program_weight_tensor_meta_hidden_states_6:
    name = "in_2"
    original_name = "hidden_states_6"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.234
    data = None


class Program_weight_tensor_meta_L_self_modules_ln_f_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_ln_f_parameters_weight_"
    shape = [512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_ln_f_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_ln_f_parameters_bias_"
    shape = [512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
