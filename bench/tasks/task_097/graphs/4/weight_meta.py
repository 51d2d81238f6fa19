class Program_weight_tensor_meta_hidden_states_29:
    name = "in_0"
    original_name = "hidden_states_29"
    shape = [2, 768, 24]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.445
    data = None


class Program_weight_tensor_meta_x:
    name = "in_1"
    original_name = "x"
    shape = [768, 48, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.007
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_pos_conv_embed_modules_conv_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_pos_conv_embed_modules_conv_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
