class Program_weight_tensor_meta_hidden_state_14:
    name = "in_0"
    original_name = "hidden_state_14"
    shape = [4, 256, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.276
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_weight_"
    shape = [192, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_bias_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_1_modules_layers_modules_0_modules_mlp_modules_fc2_parameters_bias_"
    shape = [192]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
