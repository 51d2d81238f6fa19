class Program_weight_tensor_meta_hidden_states_36:
    name = "in_0"
    original_name = "hidden_states_36"
    shape = [2, 12, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_hidden_states_37:
    name = "in_1"
    original_name = "hidden_states_37"
    shape = [2, 12, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.003
    std = 0.243
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_layer_norm_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_layer_norm_parameters_weight_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_layer_norm_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_layer_norm_parameters_bias_"
    shape = [768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_intermediate_dense_parameters_weight_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_intermediate_dense_parameters_weight_"
    shape = [3072, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_intermediate_dense_parameters_bias_:
    name = "in_5"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_intermediate_dense_parameters_bias_"
    shape = [3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
