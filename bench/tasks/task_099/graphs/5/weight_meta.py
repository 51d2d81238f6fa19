class Program_weight_tensor_meta_L_kwargs_input_ids_:
    name = "in_0"
    original_name = "L_kwargs_input_ids_"
    shape = [1, 128]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 182
    max_val = 31535


class Program_weight_tensor_meta_L_self_modules_embed_tokens_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embed_tokens_parameters_weight_"
    shape = [32000, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None
