class Program_weight_tensor_meta_query_states_1:
    name = "in_0"
    original_name = "query_states_1"
    shape = [2, 16, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.636
    data = None


class Program_weight_tensor_meta_key_states_1:
    name = "in_1"
    original_name = "key_states_1"
    shape = [2, 16, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.633
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_2"
    original_name = "value_states"
    shape = [2, 16, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.634
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_3"
    original_name = "attention_mask_1"
    shape = [2, 1, 32, 32]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_dense_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_dense_parameters_weight_"
    shape = [1024, 1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_self_attn_modules_dense_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_layers_modules_0_modules_self_attn_modules_dense_parameters_bias_"
    shape = [1024]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
