class Program_weight_tensor_meta_hidden_state_25:
    name = "in_0"
    original_name = "hidden_state_25"
    shape = [2, 192, 20, 20]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.009
    std = 0.206
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_"
    shape = [192]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_"
    shape = [192]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_"
    shape = [192]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_"
    shape = [192]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_state_24:
    name = "in_5"
    original_name = "hidden_state_24"
    shape = [2, 192, 20, 20]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.048
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_:
    name = "in_6"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_"
    shape = [512, 192, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.062
    data = None
