class Program_weight_tensor_meta_hidden_state_62:
    name = "in_0"
    original_name = "hidden_state_62"
    shape = [4, 1088, 4, 4]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.082
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_mean_"
    shape = [1088]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_buffers_running_var_"
    shape = [1088]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_weight_"
    shape = [1088]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_3_modules_layers_modules_0_modules_shortcut_modules_normalization_parameters_bias_"
    shape = [1088]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_hidden_state_61:
    name = "in_5"
    original_name = "hidden_state_61"
    shape = [4, 1088, 4, 4]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.009
    data = None
