class Program_weight_tensor_meta_hidden_states_16:
    name = "in_0"
    original_name = "hidden_states_16"
    shape = [2, 197, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.365
    data = None


class Program_weight_tensor_meta_hidden_states_11:
    name = "in_1"
    original_name = "hidden_states_11"
    shape = [2, 197, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.007
    std = 0.663
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layernorm_parameters_weight_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layernorm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_layernorm_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_pooler_modules_dense_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_pooler_modules_dense_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_pooler_modules_dense_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_pooler_modules_dense_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
