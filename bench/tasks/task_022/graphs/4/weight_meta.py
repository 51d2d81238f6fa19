class Program_weight_tensor_meta_hidden_states_14:
    name = "in_0"
    original_name = "hidden_states_14"
    shape = [1, 512, 49]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.518
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_layer_norm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_feature_projection_modules_layer_norm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_feature_projection_modules_layer_norm_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_feature_projection_modules_layer_norm_parameters_bias_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
