class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [4, 64, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.240
    data = None


class Program_weight_tensor_meta_scaled_op_1:
    name = "in_1"
    original_name = "scaled_op_1"
    shape = [4, 64, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_patch_embeddings_modules_1_modules_projection_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_patch_embeddings_modules_1_modules_projection_parameters_weight_"
    shape = [128, 64, 3, 3]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_patch_embeddings_modules_1_modules_projection_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_patch_embeddings_modules_1_modules_projection_parameters_bias_"
    shape = [128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
