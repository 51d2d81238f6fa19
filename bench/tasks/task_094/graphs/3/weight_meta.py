class Program_weight_tensor_meta_hidden_states_38:
    name = "in_0"
    original_name = "hidden_states_38"
    shape = [4, 512, 12]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.018
    std = 0.698
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_buffers_running_mean_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_buffers_running_var_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_conv_module_modules_batch_norm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
