class Program_weight_tensor_meta_getitem_5:
    name = "in_0"
    original_name = "getitem_5"
    shape = [1, 128, 1]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 127


class Program_weight_tensor_meta_L_self_modules_rotary_emb_buffers_inv_freq_:
    name = "in_1"
    original_name = "L_self_modules_rotary_emb_buffers_inv_freq_"
    shape = [8]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.183
    std = 0.347
    data = None
    min_val = 0.000
    max_val = 1.000


class Program_weight_tensor_meta_hidden_states:
    name = "in_2"
    original_name = "hidden_states"
    shape = [1, 128, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_input_layernorm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_layers_modules_0_modules_input_layernorm_parameters_bias_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
