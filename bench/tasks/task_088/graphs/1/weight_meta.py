class Program_weight_tensor_meta_linear_4:
    name = "in_0"
    original_name = "linear_4"
    shape = [1, 128, 1536]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.011
    std = 0.453
    data = None


class Program_weight_tensor_meta_hidden_states_12:
    name = "in_1"
    original_name = "hidden_states_12"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.031
    std = 0.999
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [1536, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None
