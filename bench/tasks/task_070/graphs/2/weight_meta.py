class Program_weight_tensor_meta_hidden_states_8:
    name = "in_0"
    original_name = "hidden_states_8"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [1792, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_silu:
    name = "in_2"
    original_name = "silu"
    shape = [1, 128, 1792]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.055
    std = 0.242
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_"
    shape = [512, 1792]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
