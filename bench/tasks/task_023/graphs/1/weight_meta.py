class Program_weight_tensor_meta_q_arange:
    name = "in_0"
    original_name = "q_arange"
    shape = [128]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 127


class Program_weight_tensor_meta_kv_arange:
    name = "in_1"
    original_name = "kv_arange"
    shape = [128]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 127


class Program_weight_tensor_meta_attention_mask:
    name = "in_2"
    original_name = "attention_mask"
    shape = [1, 128]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None


class Program_weight_tensor_meta_batch_indices:
    name = "in_3"
    original_name = "batch_indices"
    shape = [1, 1, 1, 1]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [0]


class Program_weight_tensor_meta_inputs_embeds:
    name = "in_4"
    original_name = "inputs_embeds"
    shape = [1, 128, 1024]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_position_ids_1:
    name = "in_5"
    original_name = "position_ids_1"
    shape = [1, 128]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 127
