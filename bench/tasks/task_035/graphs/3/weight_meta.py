class Program_weight_tensor_meta_inputs_embeds:
    name = "in_0"
    original_name = "inputs_embeds"
    shape = [2, 32, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_input_layernorm_parameters_weight_"
    shape = [512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None
