class Program_weight_tensor_meta_hidden_states_3:
    name = "in_0"
    original_name = "hidden_states_3"
    shape = [2, 32, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.072
    std = 0.244
    data = None


class Program_weight_tensor_meta_L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_weight_"
    shape = [512, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_h_modules_0_modules_mlp_modules_fc_out_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_attn_output_5:
    name = "in_3"
    original_name = "attn_output_5"
    shape = [2, 32, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.073
    data = None
