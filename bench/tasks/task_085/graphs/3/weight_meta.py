class Program_weight_tensor_meta_mul_1:
    name = "in_0"
    original_name = "mul_1"
    shape = [2, 32, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.007
    std = 0.277
    data = None


class Program_weight_tensor_meta_add_7:
    name = "in_1"
    original_name = "add_7"
    shape = [2, 32, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.991
    std = 0.388
    data = None
    min_val = 0.012
    max_val = 1.985


class Program_weight_tensor_meta_L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_ffn_output_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_ffn_output_parameters_weight_"
    shape = [768, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_ffn_output_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_albert_layer_groups_modules_0_modules_albert_layers_modules_0_modules_ffn_output_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
