class Program_weight_tensor_meta_hidden_state:
    name = "in_0"
    original_name = "hidden_state"
    shape = [1, 256, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.054
    std = 0.346
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_"
    shape = [256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_"
    shape = [256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_"
    shape = [256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_"
    shape = [256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_states_10:
    name = "in_5"
    original_name = "hidden_states_10"
    shape = [1, 256, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.019
    std = 0.272
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_:
    name = "in_6"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_"
    shape = [128, 256, 1, 1]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.125
    data = None
