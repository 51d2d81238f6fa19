class Program_weight_tensor_meta_layer_norm_3:
    name = "in_0"
    original_name = "layer_norm_3"
    shape = [2, 1600, 32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dense1_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dense1_parameters_weight_"
    shape = [256, 32]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dense1_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dense1_parameters_bias_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_weight_"
    shape = [256, 1, 3, 3]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.011
    std = 0.468
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_blocks_modules_0_modules_mlp_modules_dwconv_modules_dwconv_parameters_bias_"
    shape = [256]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
