class Program_weight_tensor_meta_query_states:
    name = "in_0"
    original_name = "query_states"
    shape = [1, 12, 24, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.019
    std = 0.560
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_1"
    original_name = "key_states"
    shape = [1, 12, 24, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.571
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_2"
    original_name = "value_states"
    shape = [1, 12, 24, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.552
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_bias_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
