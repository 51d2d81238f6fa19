class Program_weight_tensor_meta_attention_probs_1:
    name = "in_0"
    original_name = "attention_probs_1"
    shape = [1, 12, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.008
    std = 0.002
    data = None
    min_val = 0.001
    max_val = 0.033


class Program_weight_tensor_meta_v:
    name = "in_1"
    original_name = "v"
    shape = [1, 12, 128, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.002
    std = 0.556
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_attn_modules_o_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_attn_modules_o_parameters_weight_"
    shape = [768, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_attn_modules_o_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_attn_modules_o_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
