class Program_weight_tensor_meta_h_13:
    name = "in_0"
    original_name = "h_13"
    shape = [2, 8, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.229
    data = None


class Program_weight_tensor_meta_output_6:
    name = "in_1"
    original_name = "output_6"
    shape = [2, 8, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_2_modules_0_modules_ffn_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_blocks_modules_2_modules_0_modules_ffn_modules_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_blocks_modules_2_modules_0_modules_ffn_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_blocks_modules_2_modules_0_modules_ffn_modules_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_4"
    original_name = "attention_mask_1"
    shape = [2, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.875
    std = 0.336
    data = None
    min_val = 0.000
    max_val = 1.000
