class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [2, 198, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.995
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_attention_modules_v_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_attention_modules_v_proj_parameters_weight_"
    shape = [384, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_attention_modules_v_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_attention_modules_v_proj_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_3"
    original_name = "key_states"
    shape = [2, 6, 198, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.390
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_4"
    original_name = "query_states"
    shape = [2, 6, 198, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.390
    data = None
