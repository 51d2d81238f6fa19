class Program_weight_tensor_meta_hidden_state_17:
    name = "in_0"
    original_name = "hidden_state_17"
    shape = [4, 128, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.393
    std = 0.589
    data = None
    min_val = 0.000
    max_val = 6.271


class Program_weight_tensor_meta_weight_7:
    name = "in_1"
    original_name = "weight_7"
    shape = [128, 128, 3, 3]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm3_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm3_parameters_weight_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm3_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_norm3_parameters_bias_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_conv3_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_conv3_parameters_weight_"
    shape = [512, 128, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.063
    data = None


class Program_weight_tensor_meta_hidden_state_14:
    name = "in_5"
    original_name = "hidden_state_14"
    shape = [4, 512, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.019
    std = 9.298
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_norm1_parameters_weight_:
    name = "in_6"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_norm1_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_norm1_parameters_bias_:
    name = "in_7"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_norm1_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_downsample_modules_conv_parameters_weight_:
    name = "in_8"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_downsample_modules_conv_parameters_weight_"
    shape = [1024, 512, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.044
    data = None
