class Program_weight_tensor_meta_L_kwargs_input_ids_:
    name = "in_0"
    original_name = "L_kwargs_input_ids_"
    shape = [2, 32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [1409, 16017, 24088, 31064, 20139, 19480, 29318, 9325, 22265, 18497, 22686, 1036, 555, 22775, 31724, 18684, 29064, 13051, 23740, 17999, 23214, 25533, 21673, 6260, 30128, 28872, 4513, 1836, 2306, 105, 11032, 5811, 6580, 11130, 215, 26534, 16878, 21396, 23581, 18101, 1573, 7920, 8267, 20811, 5551, 18808, 5666, 17921, 16585, 1771, 17062, 21318, 31461, 22231, 17221, 6684, 5561, 21456, 4206, 2613, 22298, 16348, 26907, 28538]


class Program_weight_tensor_meta_L_self_modules_embed_tokens_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_embed_tokens_parameters_weight_"
    shape = [32000, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_kwargs_attention_mask_:
    name = "in_2"
    original_name = "L_kwargs_attention_mask_"
    shape = [2, 32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
