class Program_weight_tensor_meta_hidden_state_2:
    name = "in_0"
    original_name = "hidden_state_2"
    shape = [1, 32, 112, 112]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.174
    std = 0.258
    data = None
    min_val = 0.000
    max_val = 2.475


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_convolution_parameters_weight_"
    shape = [128, 32, 1, 1]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.126
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_mean_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_mean_"
    shape = [128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_var_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_buffers_running_var_"
    shape = [128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_weight_"
    shape = [128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_stages_modules_0_modules_layers_modules_0_modules_layer_modules_0_modules_normalization_parameters_bias_"
    shape = [128]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
