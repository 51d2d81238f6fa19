class Program_weight_tensor_meta_hidden_states_8:
    name = "in_0"
    original_name = "hidden_states_8"
    shape = [4, 64, 1024]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.010
    std = 0.497
    data = None


class Program_weight_tensor_meta_attn_outputs_1:
    name = "in_1"
    original_name = "attn_outputs_1"
    shape = [4, 64, 1024]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.189
    data = None


class Program_weight_tensor_meta_hidden_states_4:
    name = "in_2"
    original_name = "hidden_states_4"
    shape = [4, 64, 1024]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.502
    data = None


class Program_weight_tensor_meta_L_self_modules_final_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_final_layernorm_parameters_weight_"
    shape = [1024]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_final_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_final_layernorm_parameters_bias_"
    shape = [1024]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
