class Program_weight_tensor_meta_getitem_5:
    name = "in_0"
    original_name = "getitem_5"
    shape = [1, 64, 1]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]


class Program_weight_tensor_meta_L_self_modules_rotary_emb_buffers_inv_freq_:
    name = "in_1"
    original_name = "L_self_modules_rotary_emb_buffers_inv_freq_"
    shape = [8]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.183
    std = 0.347
    data = None
    min_val = 0.000
    max_val = 1.000


class Program_weight_tensor_meta_hidden_states:
    name = "in_2"
    original_name = "hidden_states"
    shape = [4, 64, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_input_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_0_modules_input_layernorm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
