class Program_weight_tensor_meta_hidden_state_4:
    name = "in_0"
    original_name = "hidden_state_4"
    shape = [4, 512, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.010
    std = 0.328
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_18:
    name = "in_5"
    original_name = "hidden_states_18"
    shape = [4, 512, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.005
    std = 0.362
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_:
    name = "in_6"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_"
    shape = [256, 512, 1, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.089
    data = None
