class Program_weight_tensor_meta_hidden_state_27:
    name = "in_0"
    original_name = "hidden_state_27"
    shape = [1, 196, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.003
    std = 0.171
    data = None


class Program_weight_tensor_meta_hidden_state_23:
    name = "in_1"
    original_name = "hidden_state_23"
    shape = [1, 196, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_1_modules_norm1_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_1_modules_norm1_parameters_weight_"
    shape = [384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_1_modules_norm1_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_1_modules_norm1_parameters_bias_"
    shape = [384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
