class Program_weight_tensor_meta_k_embed:
    name = "in_0"
    original_name = "k_embed"
    shape = [2, 8, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 0.447
    data = None


class Program_weight_tensor_meta_query_states_2:
    name = "in_1"
    original_name = "query_states_2"
    shape = [2, 8, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.004
    std = 0.446
    data = None


class Program_weight_tensor_meta_value_states_1:
    name = "in_2"
    original_name = "value_states_1"
    shape = [2, 8, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.449
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_3"
    original_name = "attention_mask_1"
    shape = [2, 1, 32, 32]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None
