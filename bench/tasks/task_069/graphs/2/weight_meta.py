class Program_weight_tensor_meta_attn_output_3:
    name = "in_0"
    original_name = "attn_output_3"
    shape = [1, 257, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.025
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_o_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_o_proj_parameters_weight_"
    shape = [384, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_o_proj_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_attention_modules_o_proj_parameters_bias_"
    shape = [384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layer_modules_0_modules_layer_scale1_parameters_lambda1_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layer_modules_0_modules_layer_scale1_parameters_lambda1_"
    shape = [384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None
