class Program_weight_tensor_meta_mul_28:
    name = "in_0"
    original_name = "mul_28"
    shape = [4, 64, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.108
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_"
    shape = [512, 1536]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_hidden_states_23:
    name = "in_2"
    original_name = "hidden_states_23"
    shape = [4, 64, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.161
    data = None
