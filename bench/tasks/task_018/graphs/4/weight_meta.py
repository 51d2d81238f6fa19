class Program_weight_tensor_meta_result_2:
    name = "in_0"
    original_name = "result_2"
    shape = [1, 1, 128, 128]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None


class Program_weight_tensor_meta_position_ids_2:
    name = "in_1"
    original_name = "position_ids_2"
    shape = [1, 128]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 127


class Program_weight_tensor_meta_L_self_modules_decoder_modules_embed_positions_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_decoder_modules_embed_positions_parameters_weight_"
    shape = [2050, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_inputs_embeds:
    name = "in_3"
    original_name = "inputs_embeds"
    shape = [1, 128, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_decoder_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_decoder_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_decoder_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_decoder_modules_layers_modules_0_modules_self_attn_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
