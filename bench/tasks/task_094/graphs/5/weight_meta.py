class Program_weight_tensor_meta_embeddings_3:
    name = "in_0"
    original_name = "embeddings_3"
    shape = [4, 32, 56, 56]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.012
    data = None


class Program_weight_tensor_meta_L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_buffers_running_mean_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_buffers_running_var_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_parameters_weight_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_patch_embeddings_modules_embedding_layer_2_modules_batch_norm_parameters_bias_"
    shape = [32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None
