class Program_weight_tensor_meta_hidden_states_2:
    name = "in_0"
    original_name = "hidden_states_2"
    shape = [4, 64, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.999
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_"
    shape = [256, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_cos_2:
    name = "in_2"
    original_name = "cos_2"
    shape = [1, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.585
    std = 0.641
    data = None


class Program_weight_tensor_meta_sin_2:
    name = "in_3"
    original_name = "sin_2"
    shape = [1, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.169
    std = 0.467
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_4"
    original_name = "query_states"
    shape = [4, 8, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 1.000
    data = None
