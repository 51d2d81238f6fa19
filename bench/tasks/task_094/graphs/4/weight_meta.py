class Program_weight_tensor_meta_hidden_state_3:
    name = "in_0"
    original_name = "hidden_state_3"
    shape = [2, 128, 80, 80]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.221
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_mean_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_var_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_weight_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_bias_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
