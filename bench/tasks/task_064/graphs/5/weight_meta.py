class Program_weight_tensor_meta_attn_output_3:
    name = "in_0"
    original_name = "attn_output_3"
    shape = [1, 49, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.012
    std = 0.377
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_attention_modules_out_proj_parameters_bias_"
    shape = [768]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_25:
    name = "in_3"
    original_name = "hidden_states_25"
    shape = [1, 49, 768]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None
