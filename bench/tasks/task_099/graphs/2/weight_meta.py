class Program_weight_tensor_meta_token_type_ids:
    name = "in_0"
    original_name = "token_type_ids"
    shape = [1, 128]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 0


class Program_weight_tensor_meta_L_self_modules_embeddings_modules_token_type_embeddings_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embeddings_modules_token_type_embeddings_parameters_weight_"
    shape = [2, 128]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.020
    data = None
