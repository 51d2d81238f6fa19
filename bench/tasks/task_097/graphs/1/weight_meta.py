class Program_weight_tensor_meta_hidden_states_38:
    name = "in_0"
    original_name = "hidden_states_38"
    shape = [2, 768, 24]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.028
    std = 0.575
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_0_modules_conv_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_0_modules_conv_parameters_weight_"
    shape = [768, 48, 19]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.047
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_0_modules_conv_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_0_modules_conv_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
