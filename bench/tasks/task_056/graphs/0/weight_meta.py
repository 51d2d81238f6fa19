class Program_weight_tensor_meta_hidden_states_42:
    name = "in_0"
    original_name = "hidden_states_42"
    shape = [2, 768, 24]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_1_modules_conv_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_1_modules_conv_parameters_weight_"
    shape = [768, 48, 19]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.047
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_1_modules_conv_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_pos_conv_embed_modules_layers_modules_1_modules_conv_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
