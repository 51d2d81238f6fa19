class Program_weight_tensor_meta_q_embed:
    name = "in_0"
    original_name = "q_embed"
    shape = [2, 14, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.596
    data = None


class Program_weight_tensor_meta_key:
    name = "in_1"
    original_name = "key"
    shape = [2, 14, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.017
    std = 0.592
    data = None


class Program_weight_tensor_meta_value:
    name = "in_2"
    original_name = "value"
    shape = [2, 14, 32, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.598
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
