class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [1, 128, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.116
    data = None


class Program_weight_tensor_meta_scaled_op_3:
    name = "in_1"
    original_name = "scaled_op_3"
    shape = [1, 128, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_patch_embeddings_modules_2_modules_projection_parameters_weight_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_patch_embeddings_modules_2_modules_projection_parameters_weight_"
    shape = [320, 128, 3, 3]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_patch_embeddings_modules_2_modules_projection_parameters_bias_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_patch_embeddings_modules_2_modules_projection_parameters_bias_"
    shape = [320]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
