class Program_weight_tensor_meta_q_arange:
    name = "in_0"
    original_name = "q_arange"
    shape = [32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]


class Program_weight_tensor_meta_kv_arange:
    name = "in_1"
    original_name = "kv_arange"
    shape = [32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]


class Program_weight_tensor_meta_attention_mask:
    name = "in_2"
    original_name = "attention_mask"
    shape = [2, 32]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, False, False, False, False, False, False, False, False]


class Program_weight_tensor_meta_batch_indices:
    name = "in_3"
    original_name = "batch_indices"
    shape = [2, 1, 1, 1]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1]


class Program_weight_tensor_meta_inputs_embeds:
    name = "in_4"
    original_name = "inputs_embeds"
    shape = [2, 32, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_position_ids_1:
    name = "in_5"
    original_name = "position_ids_1"
    shape = [1, 32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
