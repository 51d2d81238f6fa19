class Program_weight_tensor_meta_hidden_states_29:
    name = "in_0"
    original_name = "hidden_states_29"
    shape = [1, 49, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.010
    std = 0.561
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_output_dense_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_output_dense_parameters_weight_"
    shape = [768, 3072]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_output_dense_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_layers_modules_0_modules_feed_forward_modules_output_dense_parameters_bias_"
    shape = [768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
