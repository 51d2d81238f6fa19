class Program_weight_tensor_meta_hidden_states_8:
    name = "in_0"
    original_name = "hidden_states_8"
    shape = [4, 64, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.006
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_"
    shape = [1792, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_"
    shape = [1792, 512]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None
