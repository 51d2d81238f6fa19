class Program_weight_tensor_meta_hidden_state_6:
    name = "in_0"
    original_name = "hidden_state_6"
    shape = [2, 64, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.392
    std = 0.589
    data = None
    min_val = 0.000
    max_val = 5.248


class Program_weight_tensor_meta_weight_3:
    name = "in_1"
    original_name = "weight_3"
    shape = [64, 64, 3, 3]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_norm3_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_norm3_parameters_weight_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_norm3_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_norm3_parameters_bias_"
    shape = [64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_conv3_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_conv3_parameters_weight_"
    shape = [256, 64, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.088
    data = None


class Program_weight_tensor_meta_hidden_state_3:
    name = "in_5"
    original_name = "hidden_state_3"
    shape = [2, 256, 40, 40]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 4.979
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm1_parameters_weight_:
    name = "in_6"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm1_parameters_weight_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm1_parameters_bias_:
    name = "in_7"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm1_parameters_bias_"
    shape = [256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_downsample_modules_conv_parameters_weight_:
    name = "in_8"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_downsample_modules_conv_parameters_weight_"
    shape = [512, 256, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.063
    data = None
